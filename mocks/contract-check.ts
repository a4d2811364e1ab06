/**
 * @module
 * The check of recorded answers against the merged contract, as an entry of its own for
 * the browser: `startSandboxWorker({ replay, replayCheck: loadContractCheck })`. It
 * brings ajv and the merged document (about 50 kB gzipped) into an app's bundle, so the
 * browser entry leaves it out unless it is imported. Node and Playwright check on their own.
 */
import type { RecordingCheck } from '../recordings/replay/replay.ts'

/**
 * Loads the merged contract and compiles the check of recorded answers against it.
 *
 * @example
 * import { loadContractCheck } from 'platform-sandbox/contract-check'
 *
 * const { replayProblems } = await startSandboxWorker({ replay, replayCheck: loadContractCheck })
 * console.table(await replayProblems)
 */
export async function loadContractCheck(): Promise<RecordingCheck> {
  const [{ createRecordingCheck }, document] = await Promise.all([
    import('../recordings/replay/check-recordings.ts'),
    import('../spec/merged-document.ts'),
  ])
  return createRecordingCheck(document.default)
}

export type { RecordingCheck }
