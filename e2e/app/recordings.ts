/**
 * @module
 * Recorded exchanges for `?replay=staging` and `?replay=broken`: how a browser build gives
 * `startSandboxWorker({ replay })` recordings (an examples file or a HAR document,
 * imported by the bundler).
 */
import type { ReplayOptions } from '../../mocks/runtimes/browser/index.ts'

/** An examples file of one recorded `getAccountStatus` answer. */
function accountStatusRecording(summary: string, body: object): ReplayOptions {
  return {
    recordings: {
      operationId: 'getAccountStatus',
      method: 'GET',
      path: '/payprov/account-status',
      examples: { recordedOnStaging: { summary, request: {}, response: { status: 200, body } } },
    },
  }
}

export const stagingReplay = accountStatusRecording(
  'A host whose payouts were stopped, as recorded on staging',
  {
    payouts_enabled: false,
    charges_enabled: false,
    disabled_reason: 'recorded.on_staging',
    requirements: { past_due: [], currently_due: [], pending_verification: [], eventually_due: [] },
  },
)

/** An account status without `payouts_enabled`, which the contract requires. */
export const brokenAccountStatus = {
  charges_enabled: false,
  disabled_reason: 'recorded.on_staging',
}

/** For `?replay=broken`: that answer, for the worker's `replayCheck` to name. */
export const brokenReplay = accountStatusRecording(
  'An answer recorded before payouts_enabled existed',
  brokenAccountStatus,
)
