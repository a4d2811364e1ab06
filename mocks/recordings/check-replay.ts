/**
 * @module
 * The check of a replay's recordings against the merged contract, for the Node entries
 * (`./node`, `./playwright`): ajv and the document load only when there are recordings.
 */
import { loadContractCheck } from '../contract-check.ts'
import type { Replay } from './replay.ts'
import { checkReplayAndWarn } from './replay-warning.ts'

/**
 * Checks recorded answers against the merged contract (loaded only when there are
 * some) without holding up requests; an answer is checked before it is first given.
 */
export function checkReplay(replay: Replay): Promise<string[]> {
  return checkReplayAndWarn(replay, loadContractCheck)
}
