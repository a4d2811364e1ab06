/**
 * @module
 * A recordings file from its bytes, for the Node entries: parsed with `JSON.parse` when the
 * replay loads it; a HAR entry's route is read then, and the rest of the entry checked on
 * first use. Browser bundles, which get parsed documents, leave this out.
 *
 * `JSON.parse` needs the whole text as one string, and V8 makes none longer than
 * `buffer.constants.MAX_STRING_LENGTH` (2^29 - 24 characters on 64-bit Node 20, 512 MiB of
 * ASCII): a larger file is refused, naming that limit. See
 * `docs/decisions/0009-plain-readers.md`.
 */
import { constants } from 'node:buffer'
import {
  fromDocument,
  harEntries,
  harSources,
  jsonErrorMessage,
  type RecordingSource,
  type RecordingsFile,
  RecordingsFormatError,
} from './recordings.ts'

/** The recordings file named `name` (a path, in errors) with these bytes. */
export function recordingsFile(name: string, bytes: Uint8Array): RecordingsFile {
  return { name, sources: () => fromBytes(bytes, `${name}: `) }
}

const decoder = new TextDecoder()

/** The parsed JSON of a file's bytes; a `RecordingsFormatError` naming what is wrong. */
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

/** The recordings of a file: a HAR's entries by their routes, each read on first use. */
function fromBytes(bytes: Uint8Array, where: string): RecordingSource[] {
  const document = parseFile(bytes, where)
  if (document === null || typeof document !== 'object' || !('log' in document)) {
    return fromDocument(document, where)
  }
  return harSources(harEntries(document, where), where)
}
