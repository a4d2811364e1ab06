/**
 * Checkout: the guest opens a checkout session for an accepted booking (row 10).
 *
 * @module
 */
import { invalidBody, NOT_NULL, type OperationProfile, replay, sharedErrorCases } from './build.ts'
import type { ConformanceCase } from './types.ts'

const checkout: OperationProfile = {
  operationId: 'createCheckoutSession',
  success: 'payAcceptedBooking',
  bearer: ['merged'],
  dryRun: false,
  closedBody: ['merged'],
  writes: ['checkoutSessions'],
}

export const checkoutCases: ConformanceCase[] = [
  replay(checkout, 'payAcceptedBooking', {
    changes: [
      {
        collection: 'checkoutSessions',
        where: { bookingId: 'bkg_accepted' },
        before: { count: 0 },
        after: {
          count: 1,
          every: {
            userId: 'usr_guest',
            amount: 240,
            currency: 'EUR',
            status: 'open',
            id: NOT_NULL,
          },
        },
      },
    ],
  }),
  replay(checkout, 'notTheGuest'),
  replay(checkout, 'unknownBooking'),
  replay(checkout, 'bookingNotAccepted'),
  invalidBody(checkout, { bookingId: '' }, ['bookingId should not be empty'], ['merged']),
  ...sharedErrorCases(checkout),
]
