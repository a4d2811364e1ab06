/**
 * Bookings: the host declines a pending booking (row 8).
 *
 * @module
 */
import {
  invalidBody,
  type OperationProfile,
  replay,
  sharedErrorCases,
  withDryRun,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

const decline: OperationProfile = {
  operationId: 'declineBooking',
  success: 'declinePendingBooking',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  writes: ['bookings', 'notifications'],
}

const declined = replay(decline, 'declinePendingBooking', {
  changes: [
    {
      collection: 'bookings',
      where: { id: 'bkg_pending' },
      before: { count: 1, every: { status: 'pending', declineReason: null } },
      after: {
        count: 1,
        every: { status: 'declined', declineReason: 'The venue is closed for repairs that week' },
      },
    },
    {
      collection: 'notifications',
      where: { userId: 'usr_guest', kind: 'booking.declined' },
      added: 1,
    },
  ],
})

export const bookingCases: ConformanceCase[] = [
  declined,
  withDryRun(decline, declined),
  replay(decline, 'notTheHost'),
  replay(decline, 'unknownBooking'),
  replay(decline, 'bookingNotPending'),
  invalidBody(decline, { reason: ['busy'] }, ['reason must be a string'], ['merged']),
  ...sharedErrorCases(decline),
]
