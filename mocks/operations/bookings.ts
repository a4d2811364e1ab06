/**
 * @module
 * Bookings area: the host declines a pending booking (row 8).
 */
import { conflict, forbidden, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify, signedIn } from './side-effects.ts'

export const declineBooking = defineOperation({
  id: 'declineBooking',
  row: 8,
  method: 'POST',
  path: '/bookings/{bookingId}/decline',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ bookingId: nonEmpty() }),
  body: z.strictObject({ reason: z.optional(z.string().check(z.maxLength(1000))) }),
  async run({ params, body, caller, store, now }) {
    const booking = store.bookings.get(params.bookingId)
    if (!booking) throw notFound(`Booking "${params.bookingId}" not found`)
    if (booking.hostId !== signedIn(caller).publicId) {
      throw forbidden('Only the booking’s host can decline it')
    }
    if (booking.status !== 'pending') {
      throw conflict(
        `Booking "${booking.id}" is ${booking.status}, only a pending booking can be declined`,
      )
    }
    return {
      body: acknowledgement,
      async apply() {
        await store.bookings.update(booking.id, (draft) => {
          draft.status = 'declined'
          draft.declineReason = body.reason ?? null
        })
        await notify(store, now, {
          userId: booking.guestId,
          kind: 'booking.declined',
          title: 'Booking declined',
          body: body.reason ?? 'The host declined your booking.',
        })
      },
    }
  },
})
