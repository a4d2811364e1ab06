import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { SESSION_COOKIE } from '../mocks/sandbox-client/sandbox-client.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

interface Booking {
  id: string
  status: string
}
interface Follow {
  followerId: string
  followeeId: string
}

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ maxSessions: 50 })
})
afterAll(() => server.close())

const bookingStatus = async (session?: string) =>
  (await server.collection<Booking>('bookings', session)).find(
    (booking) => booking.id === anchors.bookings.pending,
  )?.status

const hostFollowsGuest = async (session?: string) =>
  (await server.collection<Follow>('follows', session)).some(
    (follow) => follow.followerId === 'usr_host' && follow.followeeId === 'usr_guest',
  )

describe('session isolation over HTTP', () => {
  it('never lets two sessions writing in parallel see each other’s writes', async () => {
    const rounds = 15
    const seen: string[] = []
    const worker = async (session: string) => {
      for (let round = 0; round < rounds; round++) {
        expect((await server.request('/__sandbox/reset', { session, body: {} })).status).toBe(200)
        expect(await bookingStatus(session)).toBe('pending')
        expect(await hostFollowsGuest(session)).toBe(false)

        const declined = await server.request(`/bookings/${anchors.bookings.pending}/decline`, {
          as: 'host',
          session,
          body: { reason: `declined by ${session}` },
        })
        expect(declined.status).toBe(201)
        const followed = await server.request('/users/usr_guest/follow', {
          as: 'host',
          session,
          body: {},
        })
        expect(followed.status).toBe(201)

        expect(await bookingStatus(session)).toBe('declined')
        expect(await hostFollowsGuest(session)).toBe(true)
        // A second write conflicts in this session only.
        const again = await server.request(`/bookings/${anchors.bookings.pending}/decline`, {
          as: 'host',
          session,
          body: {},
        })
        expect(again.status).toBe(409)
        seen.push(session)
      }
    }

    await Promise.all([worker('worker-a'), worker('worker-b')])

    expect(seen.filter((session) => session === 'worker-a')).toHaveLength(rounds)
    expect(seen.filter((session) => session === 'worker-b')).toHaveLength(rounds)
    // The shared default session never saw either worker's writes.
    expect(await bookingStatus()).toBe('pending')
    expect(await hostFollowsGuest()).toBe(false)
    // Each worker's last state is its own: both declined, each with its own reason.
    const reasons = await Promise.all(
      ['worker-a', 'worker-b'].map(
        async (session) =>
          (
            await server.collection<Booking & { declineReason: string | null }>('bookings', session)
          ).find((booking) => booking.id === anchors.bookings.pending)?.declineReason,
      ),
    )
    expect(reasons).toEqual(['declined by worker-a', 'declined by worker-b'])
  })

  it('takes the session from the sandbox_session cookie as well', async () => {
    const followed = await server.request('/users/usr_guest/follow', {
      as: 'host',
      headers: { cookie: `${SESSION_COOKIE}=cookie-session` },
      body: {},
    })
    expect(followed.status).toBe(201)
    expect(await hostFollowsGuest('cookie-session')).toBe(true)
    expect(await hostFollowsGuest()).toBe(false)
  })

  it('answers 400 for a session id with characters it does not allow', async () => {
    const response = await server.request('/__sandbox/collections/bookings', {
      session: 'no spaces please',
    })
    expect(response.status).toBe(400)
  })
})

describe('session cap', () => {
  it('keeps no more than maxSessions through a flood of 10,000 distinct ids', async () => {
    const total = 10_000
    const concurrency = 16
    let next = 0
    const statuses = new Map<number, number>()
    const flood = async () => {
      while (next < total) {
        const index = next++
        const response = await server.request('/users/usr_guest/follow', {
          as: 'host',
          session: `flood-${index}`,
          body: {},
        })
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, flood))

    // Every id was a new session, so every follow was new: 201 each time.
    expect(Object.fromEntries(statuses)).toEqual({ 201: total })
    expect(server.sandbox.sessionCount).toBeLessThanOrEqual(50)

    // The oldest sessions were evicted: following again there starts from the scenario.
    const evicted = await server.request('/users/usr_guest/follow?dryRun=true', {
      as: 'host',
      session: 'flood-0',
      body: {},
    })
    expect(evicted.status).toBe(201)
    // The most recent one still holds its write.
    const recent = await server.request('/users/usr_guest/follow?dryRun=true', {
      as: 'host',
      session: `flood-${total - 1}`,
      body: {},
    })
    expect(recent.status).toBe(409)
    expect(server.sandbox.sessionCount).toBeLessThanOrEqual(50)
  }, 120_000)
})
