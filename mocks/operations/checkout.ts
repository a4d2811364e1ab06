/**
 * @module
 * Checkout area: the guest opens a checkout session for an accepted booking (row 10).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement } from './side-effects.ts'

const booking = rulesOn('bookings', 'booking')

export const createCheckoutSession = defineBuiltInOperation({
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
      booking.exists({
        key: ({ body }) => body.bookingId as string,
        message: ({ body }) => `Booking "${body.bookingId}" not found`,
      }),
      booking.caller('guestId', 'Only the booking’s guest can pay for it'),
      booking.oneOf(
        'status',
        ['accepted'],
        ({ id, status }) => `Booking "${id}" is ${status}, only an accepted booking can be paid`,
      ),
    ],
    // No precondition reads checkout sessions: opening one is no state the learner needs.
    after: async ({ store, now, caller, records }) => {
      const { id, amount, currency } = booking.of({ records })
      await store.checkoutSessions.insert({
        id: store.nextId('cs'),
        bookingId: id,
        userId: caller,
        amount,
        currency,
        status: 'open',
        createdAt: now.toISOString(),
      })
    },
    answer: acknowledgement,
  },
})
