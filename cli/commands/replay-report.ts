/**
 * @module
 * The server command's side of `--replay`: the file read before start, the recorded answers that
 * break the merged contract (and those of no operation, not checked) named once it listens.
 */
import { loadContractCheck } from '../../mocks/contract-check.ts'
import { readRecordingsFile } from '../../recordings/replay/read-file.ts'
import { RecordingsFormatError } from '../../recordings/replay/recordings.ts'
import {
  breakingAnswersHeading,
  createReplay,
  type Replay,
} from '../../recordings/replay/replay.ts'
import { UsageError } from './input.ts'

/** The replay of a HAR or examples file; a file that is no recording is a `UsageError`. */
export function readReplayFile(from: { file: string; ignore: string[]; only: boolean }): Replay {
  try {
    const { file, ...options } = from
    return createReplay({ ...options, recordings: readRecordingsFile(file) })
  } catch (error) {
    if (error instanceof RecordingsFormatError) throw new UsageError(error.message)
    throw error
  }
}

/**
 * Prints what is replayed, the entries of no operation (as `scenario from-har` names them), then
 * each answer breaking the contract; a malformed entry exits 2.
 */
export async function reportReplay(replay: Replay): Promise<void> {
  console.log(
    `\n  Replaying ${replay.size} recorded answer${replay.size === 1 ? '' : 's'} first${replay.only ? ' (no fallback to the model)' : ''}.`,
  )
  // ajv and the schema compilation load only when there are recordings to check.
  const problems = await replay.checkAll(loadContractCheck)
  const [malformed] = replay.malformed
  if (malformed) {
    console.error(`platform-sandbox: ${malformed}`)
    process.exit(2)
  }
  const others = replay.notChecked
  if (others.length > 0) {
    const more = others.length > 3 ? ` and ${others.length - 3} more` : ''
    console.log(
      `  Left out of the check ${others.length === 1 ? '1 entry that is' : `${others.length} entries that are`} no operation of the API: ${others.slice(0, 3).join(', ')}${more}`,
    )
  }
  if (problems.length === 0) return
  console.warn(`  ${breakingAnswersHeading(problems.length)}`)
  for (const problem of problems) console.warn(`    ${problem}`)
}
