import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const b = anchors.bookings
const path = (id: string, query = '') => `/bookings/${id}/decline${query}`
const booking = async (id: string) => (await api.collection('bookings')).find((x) => x.id === id)

describe('POST /bookings/{bookingId}/decline', () => {
  it('declines a pending booking and notifies the guest', async () => {
    const response = await api.request(path(b.pending), {
      as: 'host',
      body: { reason: 'Fully booked' },
    })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    expect(await booking(b.pending)).toMatchObject({
      status: 'declined',
      declineReason: 'Fully booked',
    })
    const notes = (await api.collection('notifications')).filter(
      (n) => n.userId === personaIds.guest && n.kind === 'booking.declined',
    )
    expect(notes).toEqual([expect.objectContaining({ body: 'Fully booked' })])
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const response = await api.request(path(b.pending, '?dryRun=true'), { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect((await booking(b.pending)).status).toBe('pending')
  })

  it('with dryRun=false performs the write', async () => {
    expect(
      (await api.request(path(b.pending, '?dryRun=false'), { as: 'host', body: {} })).status,
    ).toBe(201)
    expect((await booking(b.pending)).status).toBe('declined')
  })

  it('returns 409 for a booking that is not pending', async () => {
    const response = await api.request(path(b.accepted), { as: 'host', body: {} })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it("returns 403 for someone who is not the booking's host", async () => {
    const response = await api.request(path(b.pending), { as: 'guest', body: {} })
    expect(response.status).toBe(403)
    expect((await booking(b.pending)).status).toBe('pending')
  })

  it('returns 404 for an unknown booking', async () => {
    expect((await api.request(path('bkg_missing'), { as: 'host', body: {} })).status).toBe(404)
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path(b.pending), { body: {} })).status).toBe(401)
  })
})
