/**
 * Core and Webhooks: the connected account's status (row 2) and the test refund webhook
 * (row 13).
 *
 * @module
 */
import { invalidBody, NOT_NULL, type OperationProfile, replay, sharedErrorCases } from './build.ts'
import type { ConformanceCase } from './types.ts'

const accountStatus: OperationProfile = {
  operationId: 'getAccountStatus',
  success: 'enabledAccount',
  bearer: ['published', 'merged'],
  dryRun: false,
  closedBody: [],
  writes: [],
}

const refund: OperationProfile = {
  operationId: 'testRefundWebhook',
  success: 'partialRefund',
  bearer: [],
  dryRun: false,
  closedBody: ['merged'],
  writes: ['refunds', 'bookings', 'notifications'],
}

export const payprovCases: ConformanceCase[] = [
  replay(accountStatus, 'enabledAccount'),
  replay(accountStatus, 'restrictedAccount'),
  replay(accountStatus, 'pendingVerification'),
  replay(accountStatus, 'invalidAccessToken'),
  replay(accountStatus, 'noConnectedAccount'),
  ...sharedErrorCases(accountStatus),

  replay(refund, 'partialRefund', {
    changes: [
      {
        collection: 'bookings',
        where: { id: 'bkg_paid' },
        before: { count: 1, every: { status: 'paid' } },
        after: { count: 1, every: { status: 'refunded' } },
      },
      {
        collection: 'refunds',
        where: { bookingId: 'bkg_paid' },
        before: { count: 0 },
        after: { count: 1, every: { amount: 100, createdAt: NOT_NULL } },
      },
      {
        collection: 'notifications',
        where: { userId: 'usr_guest', kind: 'booking.refunded' },
        added: 1,
      },
    ],
  }),
  replay(refund, 'amountAboveBooking'),
  replay(refund, 'unknownBooking'),
  replay(refund, 'bookingNotPaid'),
  invalidBody(
    refund,
    { amount: -1 },
    ['bookingId is required', 'amount must be greater than 0'],
    ['merged'],
  ),
  ...sharedErrorCases(refund),
]
