/**
 * @module
 * Reads a recordings file (HAR or examples JSON) from disk, for the Node entries.
 */
import { Buffer, isAscii } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { type RecordingsFile, RecordingsFormatError } from './recordings.ts'
import { recordingsFile } from './recordings-file.ts'

/**
 * The bytes of `path`, for replay to index (a HAR is parsed an entry at a time, on first
 * use). A file that cannot be read throws, naming it; so does one that is not JSON or
 * not a recording, when the replay reads it.
 */
export function readRecordingsFile(path: string): RecordingsFile {
  try {
    const bytes = readFileSync(path)
    return recordingsFile(path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new RecordingsFormatError(
      `${path}: cannot be read (${code === 'ENOENT' ? 'no such file' : code})`,
    )
  }
}

/**
 * The text of a UTF-8 file's bytes. ASCII bytes (what recordings and JSON usually are)
 * become text of one character per byte, the same text made several times quicker than
 * by decoding; anything else is decoded.
 */
export function utf8Text(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return isAscii(buffer) ? buffer.toString('latin1') : buffer.toString('utf8')
}
