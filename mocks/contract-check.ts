/**
 * @module
 * The check of recorded answers against the merged contract, an entry of its own for the
 * browser: it brings ajv and the merged document (about 50 kB gzipped) into an app's bundle.
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
