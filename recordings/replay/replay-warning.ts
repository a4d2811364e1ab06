/**
 * @module
 * How the runtimes check recorded answers against the merged contract in the background,
 * and word those that break it.
 */
import type { RecordingCheck, Replay } from './replay.ts'

/** `1 recorded answer breaks` or `3 recorded answers break`, then "the merged contract:". */
export function breakingAnswersHeading(count: number): string {
  return count === 1
    ? '1 recorded answer breaks the merged contract:'
    : `${count} recorded answers break the merged contract:`
}

/**
 * Checks every recording of `replay` with the check `load` gives (an answer a request needs
 * first is checked first), prints a warning naming those that break the contract, and
 * gives them: what the Node entries and the browser worker do.
 */
export async function checkReplayAndWarn(
  replay: Replay,
  load: () => Promise<RecordingCheck>,
): Promise<string[]> {
  const problems = await replay.checkAll(load)
  if (problems.length > 0) {
    console.warn(`[sandbox] ${breakingAnswersHeading(problems.length)}\n  ${problems.join('\n  ')}`)
  }
  return problems
}
