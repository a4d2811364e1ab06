import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

const EVIL = 'http://evil.example'
const TOKEN = 'control-token-1234'
const BEARER = { authorization: `Bearer ${TOKEN}` }
const pending = anchors.bookings.pending

let open: TestServer
let guarded: TestServer
let wildcard: TestServer

beforeAll(async () => {
  ;[open, guarded, wildcard] = await Promise.all([
    // Open to any Host, as behind an ingress, where the Host is the page's host.
    startTestServer({ corsOrigins: ['https://app.example.com'], controlOpen: true }),
    startTestServer({ controlToken: TOKEN }),
    startTestServer({ corsOrigins: ['*'] }),
  ])
})
afterAll(() => Promise.all([open.close(), guarded.close(), wildcard.close()]))

const inSession = (session: string | undefined) => (session === undefined ? {} : { session })

/** A body-less `POST /__sandbox/reset`: what any page can send without a preflight. */
const reset = (server: TestServer, headers: Record<string, string>, session?: string) =>
  server.request('/__sandbox/reset', { method: 'POST', headers, ...inSession(session) })

/** The session's bookings, as the control API lists them. */
async function bookings(server: TestServer, session?: string) {
  const headers = server === guarded ? BEARER : {}
  const response = await server.request<{ id: string; status: string }[]>(
    '/__sandbox/collections/bookings',
    { headers, ...inSession(session) },
  )
  return response.body
}

/** Declines the pending booking, a write a reset undoes; returns the bookings after it. */
async function declined(server: TestServer, session?: string) {
  await server.request(`/bookings/${pending}/decline`, {
    ...inSession(session),
    as: 'host',
    body: {},
  })
  const after = await bookings(server, session)
  expect(after.find((booking) => booking.id === pending)?.status).toBe('declined')
  return after
}

const pendingStatus = async (server: TestServer, session: string) =>
  (await bookings(server, session)).find((booking) => booking.id === pending)?.status

describe('a cross-site page and the control API', () => {
  it('cannot reset the default session with a body-less POST: 403, the state unchanged', async () => {
    const before = await declined(open)
    const response = await reset(open, { origin: EVIL })
    expect(response.status).toBe(403)
    expect(response.body).toEqual({
      message: `State-changing control calls from ${EVIL} are not allowed`,
      code: 'FORBIDDEN',
      details: [
        `Origin ${EVIL} is neither the sandbox's own origin nor an allowed one`,
        `allow it with --cors-origin ${EVIL} (or SANDBOX_CORS_ORIGIN, or the server's corsOrigins option; controlOrigins for createSandbox); a * alone does not allow control calls`,
      ],
    })
    expect(await bookings(open)).toEqual(before)
  })

  it('is refused before the control token is looked at: 403 with the token or without', async () => {
    const session = 'xsite-token'
    const before = await declined(guarded, session)
    for (const headers of [{ origin: EVIL, ...BEARER }, { origin: EVIL }]) {
      const response = await reset(guarded, headers, session)
      expect(response.status).toBe(403)
      expect(response.body).toMatchObject({ code: 'FORBIDDEN' })
    }
    expect(await bookings(guarded, session)).toEqual(before)
  })

  it('is refused with Origin: null (a sandboxed iframe, a file:// page)', async () => {
    const session = 'xsite-null'
    const before = await declined(open, session)
    const response = await reset(open, { origin: 'null' }, session)
    expect(response.status).toBe(403)
    expect(response.body).toMatchObject({
      code: 'FORBIDDEN',
      details: [expect.stringMatching(/^Origin null/), expect.any(String)],
    })
    expect(await bookings(open, session)).toEqual(before)
  })

  it('is refused even where CORS allows any origin (*)', async () => {
    const session = 'xsite-wildcard'
    const before = await declined(wildcard, session)
    expect((await reset(wildcard, { origin: EVIL }, session)).status).toBe(403)
    expect(await bookings(wildcard, session)).toEqual(before)
  })

  it("allows the page's own origin (the dashboard), behind a TLS ingress too", async () => {
    const session = 'same-origin'
    await declined(open, session)
    expect((await reset(open, { origin: open.url }, session)).status).toBe(200)
    expect(await pendingStatus(open, session)).toBe('pending')
    // Behind an ingress the page is https://sandbox.example.com and the Host is its host.
    await declined(open, session)
    const host = 'sandbox.example.com'
    expect((await reset(open, { host, origin: 'https://other.example.com' }, session)).status).toBe(
      403,
    )
    expect((await reset(open, { host, origin: `https://${host}` }, session)).status).toBe(200)
    expect(await pendingStatus(open, session)).toBe('pending')
  })

  it('allows an origin configured with --cors-origin, and the local development origins', async () => {
    const session = 'configured-origin'
    await declined(open, session)
    expect((await reset(open, { origin: 'https://evil.example.com' }, session)).status).toBe(403)
    expect((await reset(open, { origin: 'https://app.example.com' }, session)).status).toBe(200)
    await declined(open, session)
    expect((await reset(open, { origin: 'http://localhost:5173' }, session)).status).toBe(200)
    expect(await pendingStatus(open, session)).toBe('pending')
  })

  it('allows a request without Origin (curl, a Node client)', async () => {
    const session = 'no-origin'
    await declined(open, session)
    expect((await reset(open, { origin: EVIL }, session)).status).toBe(403)
    expect((await reset(open, {}, session)).status).toBe(200)
    expect(await pendingStatus(open, session)).toBe('pending')
  })

  it('still answers a cross-origin GET as today: CORS governs reads', async () => {
    const personas = await open.request('/__sandbox/personas', { headers: { origin: EVIL } })
    expect(personas.status).toBe(200)
    expect(personas.headers['access-control-allow-origin']).toBeUndefined()
    expect((await reset(open, { origin: EVIL }, 'cross-origin-get')).status).toBe(403)
  })

  it('refuses every state-changing control call, DELETE included, and answers OPTIONS', async () => {
    const headers = { origin: EVIL }
    const clear = await open.request('/__sandbox/requests', { method: 'DELETE', headers })
    expect(clear.status).toBe(403)
    const fault = await open.request('/__sandbox/faults', {
      headers,
      body: { path: '/auth/refresh', status: 500 },
    })
    expect(fault.status).toBe(403)
    const options = await open.request('/__sandbox/reset', { method: 'OPTIONS', headers })
    expect(options.status).toBe(204)
  })
})
