/**
 * @module
 * Core and Webhooks areas: the connected account's status (row 2) and the test
 * refund webhook (row 13).
 */
import { badRequest, conflict, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify, signedIn } from './side-effects.ts'

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
  async run({ caller, store }) {
    const account = store.paymentAccounts.get(signedIn(caller).publicId)
    if (!account) throw notFound('The caller has no connected payment account')
    return {
      body: {
        payouts_enabled: account.payouts_enabled,
        charges_enabled: account.charges_enabled,
        disabled_reason: account.disabled_reason,
        requirements: {
          past_due: [...account.requirements.past_due],
          currently_due: [...account.requirements.currently_due],
          pending_verification: [...account.requirements.pending_verification],
          eventually_due: [...account.requirements.eventually_due],
        },
      },
    }
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
  async run({ body, store, now }) {
    const booking = store.bookings.get(body.bookingId)
    if (!booking) throw notFound(`Booking "${body.bookingId}" not found`)
    if (booking.status !== 'paid') {
      throw conflict(
        `Booking "${booking.id}" is ${booking.status}, only a paid booking can be refunded`,
      )
    }
    const amount = body.amount ?? booking.amount
    if (amount > booking.amount) {
      throw badRequest('Validation failed', [
        `amount must not be greater than the booking amount (${booking.amount})`,
      ])
    }
    return {
      body: acknowledgement,
      async apply() {
        await store.refunds.insert({
          id: store.nextId('rfd'),
          bookingId: booking.id,
          amount,
          createdAt: now.toISOString(),
        })
        await store.bookings.update(booking.id, (draft) => {
          draft.status = 'refunded'
        })
        await notify(store, now, {
          userId: booking.guestId,
          kind: 'booking.refunded',
          title: 'Refund issued',
          body: `${amount} ${booking.currency} was refunded for booking ${booking.id}.`,
        })
      },
    }
  },
})
