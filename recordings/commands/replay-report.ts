/**
 * @module
 * The server command's side of replay: the `--replay` file is read before start (a bad one
 * ends it with exit code 2), and the recorded answers that break the merged contract are
 * named once it listens.
 */
import { loadContractCheck } from '../../mocks/contract-check.ts'
import { readRecordingsFile } from '../../recordings/replay/read-file.ts'
import { RecordingsFormatError } from '../../recordings/replay/recordings.ts'
import {
  breakingAnswersHeading,
  createReplay,
  type Replay,
} from '../../recordings/replay/replay.ts'
import { UsageError } from '../../server/commands/input.ts'

/**
 * Reads a HAR or examples file for replay; one that cannot be read, is not JSON or not a
 * recording is a `UsageError`. A HAR is indexed from its bytes, each entry parsed on
 * first use: a malformed entry is found by the check that follows start-up.
 */
export function loadReplay(from: { file: string; ignore: string[]; only: boolean }): Replay {
  try {
    const { file, ...options } = from
    return createReplay({ ...options, recordings: readRecordingsFile(file) })
  } catch (error) {
    if (error instanceof RecordingsFormatError) throw new UsageError(error.message)
    throw error
  }
}

/**
 * Prints how many recordings are replayed, and each one that breaks the merged contract,
 * once all are checked (in the background: requests are answered meanwhile, each
 * recorded answer checked before it is first given). A malformed entry ends the process
 * with one line naming the file and the entry, and exit code 2.
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
  if (problems.length === 0) return
  console.warn(`  ${breakingAnswersHeading(problems.length)}`)
  for (const problem of problems) console.warn(`    ${problem}`)
}
