/**
 * @module
 * Reads a recordings file (HAR or examples JSON) from disk, for the Node entries.
 */
import { readFileSync } from 'node:fs'
import { RecordingsFormatError } from './recordings.ts'

/** The parsed JSON of `path`; a file that is missing or not JSON throws, naming the file. */
export function readRecordingsFile(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new RecordingsFormatError(
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code})`,
    )
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new RecordingsFormatError(`${path}: is not valid JSON (${(error as Error).message})`)
  }
}
