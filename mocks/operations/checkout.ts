/**
 * @module
 * Checkout area: the guest opens a checkout session for an accepted booking (row 10).
 */
import { conflict, forbidden, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, signedIn } from './side-effects.ts'

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
  async run({ body, caller, store, now }) {
    const guest = signedIn(caller)
    const booking = store.bookings.get(body.bookingId)
    if (!booking) throw notFound(`Booking "${body.bookingId}" not found`)
    if (booking.guestId !== guest.publicId) {
      throw forbidden('Only the booking’s guest can pay for it')
    }
    if (booking.status !== 'accepted') {
      throw conflict(
        `Booking "${booking.id}" is ${booking.status}, only an accepted booking can be paid`,
      )
    }
    return {
      body: acknowledgement,
      async apply() {
        await store.checkoutSessions.insert({
          id: store.nextId('cs'),
          bookingId: booking.id,
          userId: guest.publicId,
          amount: booking.amount,
          currency: booking.currency,
          status: 'open',
          createdAt: now.toISOString(),
        })
      },
    }
  },
})
