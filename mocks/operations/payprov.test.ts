import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()

describe('GET /payprov/account-status', () => {
  it('returns the fully enabled account of the host', async () => {
    const response = await api.request('/payprov/account-status', { as: 'host' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      payouts_enabled: true,
      charges_enabled: true,
      disabled_reason: null,
      requirements: {
        past_due: [],
        currently_due: [],
        pending_verification: [],
        eventually_due: ['individual.id_number'],
      },
    })
  })

  it('shows why a restricted host is disabled and what is past due', async () => {
    const response = await api.request('/payprov/account-status', { as: 'host-restricted' })
    expect(response.status).toBe(200)
    expect(response.body.payouts_enabled).toBe(false)
    expect(response.body.disabled_reason).toBe('requirements.past_due')
    expect(response.body.requirements.past_due).toEqual([
      'external_account',
      'individual.verification.document',
    ])
  })

  it('lists items pending verification for the pending host', async () => {
    const response = await api.request('/payprov/account-status', { as: 'host-pending' })
    expect(response.body.requirements.pending_verification).toEqual([
      'individual.verification.document',
    ])
  })

  it('returns 404 for a user without a connected account', async () => {
    const response = await api.request('/payprov/account-status', { as: 'guest' })
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('NOT_FOUND')
  })

  it('returns 401 without a token', async () => {
    expect((await api.request('/payprov/account-status')).status).toBe(401)
  })
})

describe('POST /payprov/webhook/test-refund', () => {
  const path = '/payprov/webhook/test-refund'

  it('refunds a paid booking, records the refund and notifies the guest', async () => {
    const response = await api.request(path, {
      body: { bookingId: anchors.bookings.paid, amount: 100 },
    })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    const booking = (await api.collection('bookings')).find((b) => b.id === anchors.bookings.paid)
    expect(booking.status).toBe('refunded')
    const refunds = (await api.collection('refunds')).filter(
      (r) => r.bookingId === anchors.bookings.paid,
    )
    expect(refunds).toEqual([expect.objectContaining({ amount: 100 })])
    const notes = (await api.collection('notifications')).filter(
      (n) => n.userId === personaIds.guest && n.kind === 'booking.refunded',
    )
    expect(notes).toHaveLength(1)
  })

  it('refunds the full amount when no amount is given', async () => {
    await api.request(path, { body: { bookingId: anchors.bookings.paid } })
    const refunds = (await api.collection('refunds')).filter(
      (r) => r.bookingId === anchors.bookings.paid,
    )
    expect(refunds[0].amount).toBe(240)
  })

  it('returns 409 for a booking that is not paid and writes nothing', async () => {
    const before = await api.collection('refunds')
    const response = await api.request(path, { body: { bookingId: anchors.bookings.refunded } })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
    expect(await api.collection('refunds')).toEqual(before)
  })

  it('returns 400 when the amount is above the booking amount', async () => {
    const response = await api.request(path, {
      body: { bookingId: anchors.bookings.paid, amount: 241 },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'amount must not be greater than the booking amount (240)',
    ])
  })

  it('returns 400 with details for a missing bookingId and a negative amount', async () => {
    const response = await api.request(path, { body: { amount: -1 } })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'bookingId is required',
      'amount must be greater than 0',
    ])
  })

  it('returns 404 for an unknown booking', async () => {
    expect((await api.request(path, { body: { bookingId: 'bkg_missing' } })).status).toBe(404)
  })
})
