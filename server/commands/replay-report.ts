/**
 * @module
 * The server command's side of replay: a bad `--replay` file ends it with exit code 2,
 * and the recorded answers that break the merged contract are named at start-up.
 */

import { loadContractCheck } from '../../mocks/contract-check.ts'
import type { Replay } from '../../recordings/replay/replay.ts'
import { breakingAnswersHeading } from '../../recordings/replay/replay-warning.ts'
import { parseCliArguments } from '../cli-options.ts'
import type { ServerOptions } from '../options.ts'
import { USAGE_EXIT_CODE, UsageError } from './input.ts'

/** `parseCliArguments`, printing a `UsageError` on one line and exiting with code 2. */
export function parseOrExit(args: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  try {
    return parseCliArguments(args, env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`platform-sandbox: ${error.message}`)
    process.exit(USAGE_EXIT_CODE)
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
    process.exit(USAGE_EXIT_CODE)
  }
  if (problems.length === 0) return
  console.warn(`  ${breakingAnswersHeading(problems.length)}`)
  for (const problem of problems) console.warn(`    ${problem}`)
}
