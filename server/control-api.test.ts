import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED } from '../fixtures/scenarios.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

interface Booking {
  id: string
  status: string
}
interface JournalEntry {
  method: string
  path: string
  query: Record<string, string>
  status: number
  dryRun: boolean | null
  session: string
  time: string
}

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ journalLimit: 5 })
})
afterAll(() => server.close())

const statusOf = async (id: string, session?: string) =>
  (await server.collection<Booking>('bookings', session)).find((booking) => booking.id === id)
    ?.status

describe('GET /__sandbox/health', () => {
  it('answers 200 with the starting scenario once ready', async () => {
    const response = await server.request('/__sandbox/health')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      status: 'ok',
      scenario: 'default',
      seed: DEFAULT_SEED,
      usage: {
        sessions: expect.any(Number),
        maxSessions: 5000,
        journalEntries: expect.any(Number),
        journalLimit: 5,
        journalTotalLimit: 100_000,
        faultRules: 0,
      },
    })
  })
})

describe('GET /__sandbox/personas', () => {
  it('lists every persona with its refresh token and idp code', async () => {
    const response = await server.request('/__sandbox/personas')
    expect(response.status).toBe(200)
    expect(response.body).toEqual(
      personas.map(({ key, publicId, displayName, email, roles, refreshToken, idpCode }) => ({
        key,
        publicId,
        displayName,
        email,
        roles,
        refreshToken,
        idpCode,
      })),
    )
  })
})

describe('GET /__sandbox/scenarios', () => {
  it('lists the named scenarios', async () => {
    const response =
      await server.request<{ name: string; description: string }[]>('/__sandbox/scenarios')
    expect(response.status).toBe(200)
    expect(response.body.map((scenario) => scenario.name)).toEqual(['default', 'empty', 'large'])
  })
})

describe('POST /__sandbox/reset', () => {
  it('puts the session back to its scenario after a write', async () => {
    const session = 'reset-after-write'
    const declined = await server.request(`/bookings/${anchors.bookings.pending}/decline`, {
      as: 'host',
      session,
      body: {},
    })
    expect(declined.status).toBe(201)
    expect(await statusOf(anchors.bookings.pending, session)).toBe('declined')

    const reset = await server.request('/__sandbox/reset', { session, body: {} })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ session, scenario: 'default', seed: DEFAULT_SEED })
    expect(await statusOf(anchors.bookings.pending, session)).toBe('pending')
  })

  it('switches a session to another scenario and back', async () => {
    const session = 'switch-scenario'
    const toEmpty = await server.request('/__sandbox/reset', {
      session,
      body: { scenario: 'empty' },
    })
    expect(toEmpty.body).toMatchObject({ scenario: 'empty' })
    expect(await server.collection('bookings', session)).toEqual([])
    expect((await server.collection('bookings')).length).toBeGreaterThan(0)

    await server.request('/__sandbox/reset', { session, body: { scenario: 'default' } })
    expect(await statusOf(anchors.bookings.pending, session)).toBe('pending')
  })

  it('answers 400 for an unknown scenario and leaves the state alone', async () => {
    const response = await server.request<{ code: string; details: string[] }>('/__sandbox/reset', {
      body: { scenario: 'nope' },
    })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('BAD_REQUEST')
    expect(response.body.details).toEqual(['scenario must be one of: default, empty, large'])
    expect((await server.request('/__sandbox/health')).body).toMatchObject({ scenario: 'default' })
  })

  it('answers 400 for a seed that is not a non-negative integer', async () => {
    const response = await server.request('/__sandbox/reset', { body: { seed: -1.5 } })
    expect(response.status).toBe(400)
  })
})

describe('GET /__sandbox/collections/:name', () => {
  it('answers the records of a collection as a JSON array', async () => {
    const response = await server.request<Booking[]>('/__sandbox/collections/bookings')
    expect(response.status).toBe(200)
    expect(Array.isArray(response.body)).toBe(true)
    expect(response.body.map((booking) => booking.id)).toContain(anchors.bookings.pending)
  })

  it('answers 404 for an unknown collection', async () => {
    const response = await server.request<{ code: string }>('/__sandbox/collections/widgets')
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('NOT_FOUND')
  })
})

describe('GET and DELETE /__sandbox/requests', () => {
  it('records method, path, query, status, dryRun, session and time', async () => {
    const session = 'journal'
    await server.request('/__sandbox/requests', { method: 'DELETE' })
    await server.request('/users/usr_guest/follow?dryRun=true', { as: 'host', session, body: {} })
    const response = await server.request<JournalEntry[]>('/__sandbox/requests', { session })
    expect(response.status).toBe(200)
    expect(response.body).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/users/usr_guest/follow',
        query: { dryRun: 'true' },
        status: 201,
        dryRun: true,
        session,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ])
  })

  it('keeps at most the configured number of entries, newest last', async () => {
    const session = 'journal-bound'
    for (let i = 0; i < 12; i++) await server.request(`/nowhere/${i}`, { session })
    const response = await server.request<JournalEntry[]>('/__sandbox/requests')
    expect(response.body).toHaveLength(5)
    expect(response.body.at(-1)?.path).toBe('/nowhere/11')
  })

  it('clears the journal with DELETE', async () => {
    await server.request('/nowhere')
    const cleared = await server.request('/__sandbox/requests', { method: 'DELETE' })
    expect(cleared.status).toBe(204)
    expect((await server.request('/__sandbox/requests')).body).toEqual([])
  })
})

describe('GET /__sandbox/openapi.json', () => {
  it('serves the merged contract with the operations and the control API', async () => {
    const response = await server.request<{ openapi: string; paths: Record<string, unknown> }>(
      '/__sandbox/openapi.json',
    )
    expect(response.status).toBe(200)
    expect(response.body.openapi).toMatch(/^3\.1/)
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining([
        '/auth/refresh',
        '/bookings/{bookingId}/decline',
        '/__sandbox/health',
      ]),
    )
  })
})

describe('unknown control calls', () => {
  it('answers 404 with an ApiErrorResponseDto', async () => {
    const response = await server.request<{ code: string }>('/__sandbox/nothing-here')
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('NOT_FOUND')
  })
})
