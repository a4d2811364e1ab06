import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('fault rules on the standalone server', () => {
  it('resets the connection for a network error, once, then answers normally', async () => {
    const session = 'faults-network'
    const added = await server.request('/__sandbox/faults', {
      session,
      body: { path: '/bookings/:bookingId/decline', networkError: true, times: 1 },
    })
    expect(added.status).toBe(201)
    const path = `/bookings/${anchors.bookings.pending}/decline`
    await expect(server.request(path, { session, as: 'host', body: {} })).rejects.toMatchObject({
      code: 'ECONNRESET',
    })
    const after = await server.request(path, { session, as: 'host', body: {} })
    expect(after.status).toBe(201)
    const journal = await server.request<{ status: number; fault?: string }[]>(
      '/__sandbox/requests',
      { session },
    )
    expect(journal.body.filter((entry) => entry.fault === 'f1')).toEqual([
      expect.objectContaining({ status: 0, fault: 'f1' }),
    ])
  })

  it("answers a gateway's 503 with Retry-After, readable by a page of another origin", async () => {
    const session = 'faults-gateway'
    const added = await server.request('/__sandbox/faults', {
      session,
      body: { path: '/payprov/account-status', status: 503, retryAfterSeconds: 12 },
    })
    expect(added.status).toBe(201)
    const response = await server.request('/payprov/account-status', {
      session,
      as: 'host',
      headers: { origin: 'http://localhost:5173' },
    })
    expect(response.status).toBe(503)
    expect(response.headers['retry-after']).toBe('12')
    expect(response.headers['access-control-expose-headers']).toBe('Retry-After')
    expect(response.body).toEqual({
      message: 'Fault rule f1 answered 503',
      code: 'SERVICE_UNAVAILABLE',
    })
    const journal = await server.request<{ status: number; fault?: string; gateway?: true }[]>(
      '/__sandbox/requests',
      { session },
    )
    expect(journal.body.at(-1)).toMatchObject({ status: 503, fault: 'f1', gateway: true })

    const tooMany = await server.request('/payprov/account-status', {
      session,
      as: 'host',
      headers: { prefer: 'code=429' },
    })
    expect(tooMany.status).toBe(429)
    expect(tooMany.headers['retry-after']).toBe('1')
  })

  it('answers a Prefer code without running the operation', async () => {
    const session = 'faults-prefer'
    const response = await server.request(`/bookings/${anchors.bookings.pending}/decline`, {
      session,
      as: 'host',
      body: {},
      headers: { prefer: 'code=404' },
    })
    expect(response.status).toBe(404)
    const bookings = await server.collection<{ id: string; status: string }>('bookings', session)
    expect(bookings.find((booking) => booking.id === anchors.bookings.pending)?.status).toBe(
      'pending',
    )
  })
})
