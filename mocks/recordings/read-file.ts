/**
 * @module
 * Reads a recordings file (HAR or examples JSON) from disk, for the Node entries.
 */
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
