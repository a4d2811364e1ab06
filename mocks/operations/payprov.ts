/**
 * @module
 * Core and Webhooks areas: the connected account's status (row 2) and the test
 * refund webhook (row 13).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

const account = rulesOn('paymentAccounts', 'account')
const booking = rulesOn('bookings', 'booking')

/** Row 2. The caller's own connected account. */
export const getAccountStatus = defineBuiltInOperation({
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
      account.exists({
        key: ({ caller }) => caller,
        message: () => 'The caller has no connected payment account',
      }),
    ],
    answer: undefined,
    shows: account.shows(['payouts_enabled', 'charges_enabled', 'disabled_reason', 'requirements']),
  },
})

/** Row 13. Records a refund of a paid booking, as the payment provider's webhook would. */
export const testRefundWebhook = defineBuiltInOperation({
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
      booking.exists({
        key: ({ body }) => body.bookingId as string,
        message: ({ body }) => `Booking "${body.bookingId}" not found`,
      }),
      booking.oneOf(
        'status',
        ['paid'],
        ({ id, status }) => `Booking "${id}" is ${status}, only a paid booking can be refunded`,
      ),
      booking.atMost(
        'amount',
        'amount',
        ({ amount }) => `amount must not be greater than the booking amount (${amount})`,
      ),
    ],
    effects: [booking.update({ set: { status: 'refunded' } })],
    // The refund is a receipt no precondition reads.
    after: async ({ store, now, body, records }) => {
      const { id, guestId, currency, amount: paid } = booking.of({ records })
      const amount = (body.amount as number | undefined) ?? paid
      await store.refunds.insert({
        id: store.nextId('rfd'),
        bookingId: id,
        amount,
        createdAt: now.toISOString(),
      })
      await notify(store, now, {
        userId: guestId,
        kind: 'booking.refunded',
        title: 'Refund issued',
        body: `${amount} ${currency} was refunded for booking ${id}.`,
      })
    },
    answer: acknowledgement,
  },
})
