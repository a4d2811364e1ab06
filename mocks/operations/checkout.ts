/**
 * @module
 * Checkout area: the guest opens a checkout session for an accepted booking (row 10).
 */
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement } from './side-effects.ts'

export const createCheckoutSession = defineOperation({
  id: 'createCheckoutSession',
  row: 10,
  method: 'POST',
  path: '/checkout/create-session',
  auth: 'user',
  dryRun: false,
  successStatus: 201,
  params: z.object({}),
  body: z.strictObject({ bookingId: nonEmpty() }),
  rules: {
    requires: [
      {
        kind: 'exists',
        name: 'booking',
        collection: 'bookings',
        key: ({ body }) => body.bookingId as string,
        message: ({ body }) => `Booking "${body.bookingId}" not found`,
      },
      {
        kind: 'caller',
        record: 'booking',
        field: 'guestId',
        message: 'Only the booking’s guest can pay for it',
      },
      {
        kind: 'oneOf',
        record: 'booking',
        field: 'status',
        values: ['accepted'],
        message: (booking) =>
          `Booking "${booking.id}" is ${booking.status}, only an accepted booking can be paid`,
      },
    ],
    // No precondition reads checkout sessions: opening one is no state the learner needs.
    after: async ({ store, now, caller, records: { booking } }) => {
      await store.checkoutSessions.insert({
        id: store.nextId('cs'),
        bookingId: booking.id,
        userId: caller,
        amount: booking.amount,
        currency: booking.currency,
        status: 'open',
        createdAt: now.toISOString(),
      })
    },
    answer: acknowledgement,
  },
})
