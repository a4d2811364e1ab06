/**
 * @module
 * Bookings area: the host declines a pending booking (row 8).
 */
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

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
  rules: {
    requires: [
      {
        kind: 'exists',
        name: 'booking',
        collection: 'bookings',
        key: ({ params }) => params.bookingId!,
        message: ({ params }) => `Booking "${params.bookingId}" not found`,
      },
      {
        kind: 'caller',
        record: 'booking',
        field: 'hostId',
        message: 'Only the booking’s host can decline it',
      },
      {
        kind: 'oneOf',
        record: 'booking',
        field: 'status',
        values: ['pending'],
        message: (booking) =>
          `Booking "${booking.id}" is ${booking.status}, only a pending booking can be declined`,
      },
    ],
    effects: [
      {
        update: 'booking',
        set: { status: 'declined' },
        draft: (draft, { body }) => {
          draft.declineReason = body.reason ?? null
        },
      },
    ],
    after: ({ store, now, body, records }) =>
      notify(store, now, {
        userId: records.booking.guestId,
        kind: 'booking.declined',
        title: 'Booking declined',
        body: (body.reason as string | undefined) ?? 'The host declined your booking.',
      }),
    answer: acknowledgement,
  },
})
