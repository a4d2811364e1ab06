/**
 * @module
 * A recorded exchange for `?replay=staging`: how a browser build gives
 * `startSandboxWorker({ replay })` recordings (an examples file or a HAR document,
 * imported by the bundler).
 */
import type { ReplayOptions } from '../../mocks/browser.ts'

export const stagingReplay: ReplayOptions = {
  recordings: {
    operationId: 'getAccountStatus',
    method: 'GET',
    path: '/payprov/account-status',
    examples: {
      recordedOnStaging: {
        summary: 'A host whose payouts were stopped, as recorded on staging',
        request: {},
        response: {
          status: 200,
          body: {
            payouts_enabled: false,
            charges_enabled: false,
            disabled_reason: 'recorded.on_staging',
            requirements: {
              past_due: [],
              currently_due: [],
              pending_verification: [],
              eventually_due: [],
            },
          },
        },
      },
    },
  },
}

/**
 * For `?replay=broken`: the same exchange without `payouts_enabled`, which the contract
 * requires, for the worker's `replayCheck` to name.
 */
export const brokenReplay: ReplayOptions = {
  recordings: {
    operationId: 'getAccountStatus',
    method: 'GET',
    path: '/payprov/account-status',
    examples: {
      recordedOnStaging: {
        summary: 'An answer recorded before payouts_enabled existed',
        request: {},
        response: {
          status: 200,
          body: { charges_enabled: false, disabled_reason: 'recorded.on_staging' },
        },
      },
    },
  },
}
