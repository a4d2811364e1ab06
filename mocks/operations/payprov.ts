/**
 * @module
 * Core and Webhooks areas: the connected account's status (row 2) and the test
 * refund webhook (row 13).
 */
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

/** Row 2. The caller's own connected account. */
export const getAccountStatus = defineOperation({
  id: 'getAccountStatus',
  row: 2,
  method: 'GET',
  path: '/payprov/account-status',
  auth: 'user',
  dryRun: false,
  successStatus: 200,
  params: z.object({}),
  body: undefined,
  rules: {
    requires: [
      {
        kind: 'exists',
        name: 'account',
        collection: 'paymentAccounts',
        key: ({ caller }) => caller,
        message: () => 'The caller has no connected payment account',
      },
    ],
    answer: undefined,
    shows: {
      record: 'account',
      fields: ['payouts_enabled', 'charges_enabled', 'disabled_reason', 'requirements'],
    },
  },
})

/** Row 13. Records a refund of a paid booking, as the payment provider's webhook would. */
export const testRefundWebhook = defineOperation({
  id: 'testRefundWebhook',
  row: 13,
  method: 'POST',
  path: '/payprov/webhook/test-refund',
  auth: 'public',
  dryRun: false,
  successStatus: 201,
  params: z.object({}),
  body: z.strictObject({ bookingId: nonEmpty(), amount: z.optional(z.number().check(z.gt(0))) }),
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
        kind: 'oneOf',
        record: 'booking',
        field: 'status',
        values: ['paid'],
        message: (booking) =>
          `Booking "${booking.id}" is ${booking.status}, only a paid booking can be refunded`,
      },
      {
        kind: 'atMost',
        record: 'booking',
        field: 'amount',
        body: 'amount',
        message: (booking) =>
          `amount must not be greater than the booking amount (${booking.amount})`,
      },
    ],
    effects: [{ update: 'booking', set: { status: 'refunded' } }],
    // The refund is a receipt no precondition reads.
    after: async ({ store, now, body, records: { booking } }) => {
      const amount = (body.amount as number | undefined) ?? booking.amount
      await store.refunds.insert({
        id: store.nextId('rfd'),
        bookingId: booking.id,
        amount,
        createdAt: now.toISOString(),
      })
      await notify(store, now, {
        userId: booking.guestId,
        kind: 'booking.refunded',
        title: 'Refund issued',
        body: `${amount} ${booking.currency} was refunded for booking ${booking.id}.`,
      })
    },
    answer: acknowledgement,
  },
})
