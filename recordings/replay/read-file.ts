/**
 * @module
 * A recordings file read in Node, parsed with `JSON.parse` when the replay loads it. V8 makes no
 * string longer than `buffer.constants.MAX_STRING_LENGTH` (512 MiB of ASCII on 64-bit Node 20): a
 * larger file is refused, naming that limit. See `docs/decisions/0009-plain-readers.md`.
 */
import { Buffer, constants, isAscii } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { jsonErrorMessage } from '../../mocks/core/index.ts'
import { fromDocument, type RecordingsFile, RecordingsFormatError } from './recordings.ts'

/** The file at `path`, read now. */
export function readRecordingsFile(path: string): RecordingsFile {
  try {
    return recordingsFile(path, readFileSync(path))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new RecordingsFormatError(
      `${path}: cannot be read (${code === 'ENOENT' ? 'no such file' : code})`,
    )
  }
}

/** The recordings file named `name` (in errors) with these bytes. */
export function recordingsFile(name: string, bytes: Uint8Array): RecordingsFile {
  return { name, sources: () => fromDocument(parseFile(bytes, `${name}: `), `${name}: `, true) }
}

const decoder = new TextDecoder()

function parseFile(bytes: Uint8Array, where: string): unknown {
  if (bytes.length > constants.MAX_STRING_LENGTH) {
    const mib = Math.floor(constants.MAX_STRING_LENGTH / 2 ** 20)
    throw new RecordingsFormatError(
      `${where}is too large to read as one JSON text (${bytes.length} bytes, at most ${mib} MiB): record fewer exchanges per file`,
    )
  }
  const text = decoder.decode(bytes)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new RecordingsFormatError(`${where}is not valid JSON (${jsonErrorMessage(error, text)})`)
  }
}

/** A UTF-8 file's text: ASCII (as JSON usually is) read as latin1, several times quicker. */
export function utf8Text(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return isAscii(buffer) ? buffer.toString('latin1') : buffer.toString('utf8')
}
