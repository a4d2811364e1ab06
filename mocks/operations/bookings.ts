/**
 * @module
 * Bookings area: the host declines a pending booking (row 8).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

const booking = rulesOn('bookings', 'booking')

export const declineBooking = defineBuiltInOperation({
  id: 'declineBooking',
  row: 8,
  method: 'POST',
  path: '/bookings/{bookingId}/decline',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ bookingId: nonEmpty() }),
  body: z.strictObject({ reason: z.optional(z.string().check(z.maxLength(1000))) }),
  rules: {
    requires: [
      booking.exists({
        key: ({ params }) => params.bookingId!,
        message: ({ params }) => `Booking "${params.bookingId}" not found`,
      }),
      booking.caller('hostId', 'Only the booking’s host can decline it'),
      booking.oneOf(
        'status',
        ['pending'],
        ({ id, status }) => `Booking "${id}" is ${status}, only a pending booking can be declined`,
      ),
    ],
    effects: [
      booking.update({
        set: { status: 'declined' },
        draft: (draft, { body }) => {
          draft.declineReason = (body.reason as string | undefined) ?? null
        },
      }),
    ],
    after: ({ store, now, body, records }) =>
      notify(store, now, {
        userId: booking.of({ records }).guestId,
        kind: 'booking.declined',
        title: 'Booking declined',
        body: (body.reason as string | undefined) ?? 'The host declined your booking.',
      }),
    answer: acknowledgement,
  },
})
