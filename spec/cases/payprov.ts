/**
 * Core and Webhooks: the connected account's status (row 2) and the test refund webhook
 * (row 13).
 *
 * @module
 */

import { SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'
import {
  apiError,
  errorCase,
  invalidBody,
  NOT_NULL,
  type OperationProfile,
  replay,
  sharedErrorCases,
} from './build.ts'
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
  errorCase(accountStatus, '400 when the x-sandbox-session header is malformed', {
    request: {
      method: 'GET',
      url: '/payprov/account-status',
      as: 'host',
      headers: { [SESSION_HEADER]: 'not a session id!' },
    },
    status: 400,
    body: apiError('BAD_REQUEST', 'Invalid sandbox session id', [
      'session id (x-sandbox-session header or sandbox_session cookie) must be 1 to 64 letters, digits or . _ : -',
    ]),
    breaks: ['merged'],
  }),
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
