/**
 * @module
 * The check of a replay's recordings against the merged contract, for the Node entries
 * (`./node`, `./playwright`): ajv and the document load only when there are recordings.
 */
import type { Replay } from './replay.ts'
import { breakingAnswersWarning } from './replay-warning.ts'

/**
 * Checks recorded answers against the merged contract (loaded only when there are
 * some) without holding up requests; an answer is checked before it is first given.
 */
export async function checkReplay(replay: Replay): Promise<string[]> {
  const problems = await replay.checkAll(async () => {
    const { createRecordingCheck } = await import('./check-recordings.ts')
    const document = await import('../../spec/merged-document.ts')
    return createRecordingCheck(document.default)
  })
  if (problems.length > 0) {
    console.warn(breakingAnswersWarning(problems))
  }
  return problems
}
