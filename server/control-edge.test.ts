/**
 * The server's edge of `/__sandbox` (server/exposure.ts): without a control token or
 * `--control-open`, the control API, the dashboard and MCP answer a loopback `Host` only, the
 * health check anyone; and a malformed session is refused on every path by the core's rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../cli/cli-options.ts'
import { anchors } from '../fixtures/anchors.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

const FOREIGN = 'sandbox.team.example'
const TOKEN = 'qa-team-token-123'
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
}
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
}

/** The control API, the dashboard, the docs page and MCP, as `[method, path, body?]`. */
const CONTROL_CALLS = [
  ['POST', '/__sandbox/reset'],
  ['GET', '/__sandbox/collections/bookings'],
  ['GET', '/__sandbox/'],
  ['GET', '/__sandbox/docs'],
  ['GET', '/__sandbox/dashboard.js'],
  ['GET', '/__sandbox/events'],
  ['POST', '/__sandbox/mcp', INITIALIZE],
] as const

let local: TestServer
let opened: TestServer
let guarded: TestServer

beforeAll(async () => {
  ;[local, opened, guarded] = await Promise.all([
    startTestServer(),
    startTestServer({ controlOpen: true }),
    startTestServer({ controlToken: TOKEN }),
  ])
})
afterAll(() => Promise.all([local.close(), opened.close(), guarded.close()]))

function send(
  server: TestServer,
  [method, path, body]: (typeof CONTROL_CALLS)[number],
  headers = {},
) {
  const mcp = path === '/__sandbox/mcp' ? MCP_HEADERS : {}
  return server.request(path, {
    method,
    headers: { ...mcp, ...headers },
    ...(body === undefined ? {} : { body }),
  })
}

async function bookingStatus(server: TestServer) {
  return (await server.sandbox.store()).bookings.get(anchors.bookings.pending)?.status
}

describe('the control API on loopback without a control token', () => {
  it('refuses a Host that is not loopback with a 403 naming --control-token, and changes nothing', async () => {
    const declined = await local.request(`/bookings/${anchors.bookings.pending}/decline`, {
      as: 'host',
      body: {},
    })
    expect(declined.status).toBe(201)
    for (const call of CONTROL_CALLS) {
      const where = `${call[0]} ${call[1]}`
      const response = await send(local, call, { host: `${FOREIGN}:8080` })
      expect(response.status, where).toBe(403)
      expect(response.body, where).toMatchObject({
        message: `The control API answers Host ${FOREIGN}:8080 only with a control token or --control-open`,
        code: 'FORBIDDEN',
      })
      const details = (response.body as { details: string[] }).details
      expect(details[0], where).toContain('127.0.0.0/8')
      expect(details[1], where).toContain('--control-token')
    }
    expect(await bookingStatus(local)).toBe('declined')
  })

  it('serves every loopback Host, with or without its port', async () => {
    const { port } = local
    for (const host of [
      `localhost:${port}`,
      'localhost',
      'LOCALHOST',
      `app.localhost:${port}`,
      `127.0.0.1:${port}`,
      '127.5.6.7',
      `[::1]:${port}`,
      '[::1]',
    ]) {
      const response = await local.request('/__sandbox/scenarios', { headers: { host } })
      expect(response.status, host).toBe(200)
    }
    for (const host of [
      '::1',
      `localhost.${FOREIGN}`,
      '127.0.0.1.nip.io',
      '0.0.0.0:4010',
      '[::2]',
    ]) {
      const response = await local.request('/__sandbox/scenarios', { headers: { host } })
      expect(response.status, host).toBe(403)
    }
  })

  it('keeps the health check and the API operations open to any Host', async () => {
    const health = await local.request('/__sandbox/health', { headers: { host: FOREIGN } })
    expect(health.status).toBe(200)
    const operation = await local.request('/payprov/account-status', {
      as: 'host',
      headers: { host: FOREIGN },
    })
    expect(operation.status).toBe(200)
  })
})

describe('--control-open and a control token', () => {
  it('--control-open serves the control API, the dashboard and MCP to any Host', async () => {
    for (const call of CONTROL_CALLS.filter(([, path]) => path !== '/__sandbox/events')) {
      const response = await send(opened, call, { host: `${FOREIGN}:8080` })
      expect(response.status, `${call[0]} ${call[1]}`).toBe(200)
    }
    expect(parseCliArguments(['--control-open'], {}).controlOpen).toBe(true)
    expect(parseCliArguments([], { SANDBOX_CONTROL_OPEN: 'true' }).controlOpen).toBe(true)
    expect(parseCliArguments([], {}).controlOpen).toBeUndefined()
  })

  it('a control token leaves any Host to the token', async () => {
    const refused = await guarded.request('/__sandbox/reset', {
      method: 'POST',
      headers: { host: FOREIGN },
    })
    expect(refused.status).toBe(401)
    const accepted = await guarded.request('/__sandbox/reset', {
      method: 'POST',
      headers: { host: FOREIGN, authorization: `Bearer ${TOKEN}` },
    })
    expect(accepted.status).toBe(200)
  })
})

describe('the session rule on every path', () => {
  const invalid = {
    message: 'Invalid sandbox session id',
    code: 'BAD_REQUEST',
    details: [
      'session id (x-sandbox-session header or sandbox_session cookie) must be 1 to 64 letters, digits or . _ : -',
    ],
  }

  it('answers the same 400 to a malformed session header or cookie on the control API, the dashboard, the docs page and MCP', async () => {
    for (const call of CONTROL_CALLS) {
      for (const headers of [{ 'x-sandbox-session': 'AK<' }, { cookie: 'sandbox_session=AK<' }]) {
        const where = `${call[0]} ${call[1]} ${JSON.stringify(headers)}`
        const response = await send(local, call, headers)
        expect({ status: response.status, body: response.body }, where).toEqual({
          status: 400,
          body: invalid,
        })
      }
    }
    const health = await local.request('/__sandbox/health', { session: 'AK<' })
    expect({ status: health.status, body: health.body }).toEqual({ status: 400, body: invalid })
  })

  it('is checked before the control token, as the core checks it', async () => {
    const response = await guarded.request('/__sandbox/collections/bookings', { session: 'AK<' })
    expect(response.status).toBe(400)
  })
})
