import { describe, expect, it } from 'vitest'
import type { Booking } from '../model/schemas.ts'
import { createSandbox } from '../sandbox.ts'

const now = () => new Date('2026-06-01T08:00:00.000Z')

describe('sandbox.factories', () => {
  it('creates a pending booking for the host in one line, at one of their venues', async () => {
    const sandbox = createSandbox({ now })
    const booking: Booking = await sandbox.factories.bookings(
      { hostId: 'usr_host' },
      { session: 'f1' },
    )
    const store = await sandbox.store('f1')
    expect(store.bookings.get(booking.id)).toEqual(booking)
    expect(booking).toMatchObject({
      hostId: 'usr_host',
      guestId: 'usr_guest',
      status: 'pending',
      currency: 'EUR',
    })
    expect(store.venues.get(booking.listingId)?.ownerId).toBe('usr_host')
    const hours = (Date.parse(booking.endsAt) - Date.parse(booking.startsAt)) / 3_600_000
    expect(Number.isInteger(hours) && hours >= 2 && hours <= 8).toBe(true)
    expect(new Date(booking.startsAt).getUTCMinutes()).toBe(0)
    expect(Date.parse(booking.startsAt)).toBeGreaterThan(now().getTime())
    expect(booking.amount % 5).toBe(0)
    // Only the named session changed.
    expect((await sandbox.store()).bookings.has(booking.id)).toBe(false)
  })

  it('gives the same records for the same seed, and the host can decline the new booking', async () => {
    const make = async () => {
      const sandbox = createSandbox({ now, seed: 11 })
      return { sandbox, booking: await sandbox.factories.bookings({ hostId: 'usr_host' }) }
    }
    const [a, b] = [await make(), await make()]
    expect(a.booking).toEqual(b.booking)
    const token = await a.sandbox.handle({
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        refreshToken: a.sandbox.personas.find((p) => p.key === 'host')!.refreshToken,
      }),
    })
    const declined = await a.sandbox.handle({
      method: 'POST',
      url: `/bookings/${a.booking.id}/decline`,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(token.body as { accessToken: string }).accessToken}`,
      },
      body: '{}',
    })
    expect(declined.status).toBe(201)
  })

  it('creates what a record points at when the session has nothing to point at', async () => {
    const sandbox = createSandbox({ scenario: 'empty', now })
    const refund = await sandbox.factories.refunds()
    const store = await sandbox.store()
    const booking = store.bookings.get(refund.bookingId)!
    expect(booking.status).toBe('paid')
    expect(refund.amount).toBe(booking.amount)
    expect(store.venues.get(booking.listingId)?.ownerId).toBe('usr_host')
    const user = await sandbox.factories.users({ roles: ['host'] })
    expect(user.email).toMatch(/@example\.com$/)
    const notification = await sandbox.factories.notifications({ userId: 'usr_host' })
    const venue = store.venues.get(booking.listingId)!
    expect(notification.title).toBe(
      `Gus Guest wants to book ${venue.name}`.replace(
        'Gus Guest',
        store.users.get('usr_guest')!.displayName,
      ),
    )
    expect(notification.body).toContain(venue.name)
  })

  it('refuses overrides that break the schema or point at nothing, naming the field', async () => {
    const sandbox = createSandbox({ now })
    await expect(
      sandbox.factories.bookings({ hostId: 'usr_nobody', status: 'paid' }),
    ).rejects.toThrow(
      'Failed to create a record in bookings:\n  bookings.hostId: no user "usr_nobody"',
    )
    await expect(sandbox.factories.bookings({ status: 'cancelled' as never })).rejects.toThrow(
      'bookings.status: expected one of pending, accepted, declined, paid, refunded, got "cancelled"',
    )
    await expect(sandbox.factories.users({ publicId: 'usr_host' })).rejects.toThrow(
      /already exists/,
    )
  })
})
