import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const b = anchors.bookings
const path = '/checkout/create-session'
const sessionsOf = async (bookingId: string) =>
  (await api.collection('checkoutSessions')).filter((s) => s.bookingId === bookingId)

describe('POST /checkout/create-session', () => {
  it('opens a checkout session for an accepted booking of the guest', async () => {
    const response = await api.request(path, { as: 'guest', body: { bookingId: b.accepted } })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    expect(await sessionsOf(b.accepted)).toEqual([
      expect.objectContaining({
        userId: personaIds.guest,
        amount: 240,
        currency: 'EUR',
        status: 'open',
      }),
    ])
  })

  it('returns 409 for a booking that is not accepted', async () => {
    const response = await api.request(path, { as: 'guest', body: { bookingId: b.pending } })
    expect(response.status).toBe(409)
    expect(await sessionsOf(b.pending)).toEqual([])
  })

  it("returns 403 for someone who is not the booking's guest", async () => {
    const response = await api.request(path, { as: 'host', body: { bookingId: b.accepted } })
    expect(response.status).toBe(403)
    expect(await sessionsOf(b.accepted)).toEqual([])
  })

  it('returns 404 for an unknown booking', async () => {
    expect(
      (await api.request(path, { as: 'guest', body: { bookingId: 'bkg_missing' } })).status,
    ).toBe(404)
  })

  it('returns 400 without a bookingId', async () => {
    const response = await api.request(path, { as: 'guest', body: {} })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['bookingId is required'])
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path, { body: { bookingId: b.accepted } })).status).toBe(401)
  })
})
