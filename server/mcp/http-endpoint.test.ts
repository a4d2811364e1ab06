/**
 * `/__sandbox/mcp` as part of the control API: refused without the control token (with no
 * `WWW-Authenticate` challenge), from a page of another site, for a `Host` that is not
 * loopback without a token, and when the control API is closed; its MCP sessions act on
 * their own sandbox sessions, and are bounded by a cap and an idle timeout.
 */
import { request } from 'node:http'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterEach, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { call, connectHttp } from '../../test-support/mcp/test-mcp.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'

let clients: Client[] = []
let servers: TestServer[] = []
afterEach(async () => {
  for (const client of clients) await client.close().catch(() => undefined)
  for (const server of servers) await server.close()
  clients = []
  servers = []
})

async function started(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options)
  servers.push(server)
  return server
}

async function connected(url: string, headers: Record<string, string> = {}) {
  const client = await connectHttp(url, headers)
  clients.push(client)
  return client
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
})

/** An initialize request with the `Host` given (fetch would not send another than the URL's). */
function initializeWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    sent.on('error', reject)
    sent.end(INITIALIZE)
  })
}

function initialize(url: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: INITIALIZE,
  })
}

async function bookingStatus(client: Client) {
  const { items } = await call<{ items: { status: string }[] }>(client, 'readCollection', {
    name: 'bookings',
    where: { id: anchors.bookings.pending },
  })
  return items[0]?.status
}

describe('who may call /__sandbox/mcp', () => {
  it('refuses a call without the control token with a 401 and no WWW-Authenticate challenge', async () => {
    const server = await started({ controlToken: 'mcp-secret' })
    const refused = await initialize(`${server.url}/__sandbox/mcp`)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBeNull()
    expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' })
    const wrong = await initialize(`${server.url}/__sandbox/mcp`, { authorization: 'Bearer no' })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toBeNull()
    const accepted = await initialize(`${server.url}/__sandbox/mcp`, {
      authorization: 'Bearer mcp-secret',
    })
    expect(accepted.status).toBe(200)
    expect(accepted.headers.get('mcp-session-id')).toMatch(/^[\w-]+$/)
  })

  it('refuses a page of another site, whatever token it carries', async () => {
    const server = await started({ controlToken: 'mcp-secret' })
    const foreign = await initialize(`${server.url}/__sandbox/mcp`, {
      authorization: 'Bearer mcp-secret',
      origin: 'https://evil.example',
    })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ code: 'FORBIDDEN' })
    const local = await initialize(`${server.url}/__sandbox/mcp`, {
      authorization: 'Bearer mcp-secret',
      origin: 'http://localhost:5173',
    })
    expect(local.status).toBe(200)
  })

  it('serves only a loopback Host without a control token (DNS rebinding)', async () => {
    const server = await started()
    const url = `${server.url}/__sandbox/mcp`
    const rebound = await initializeWithHost(url, `evil.example:${server.port}`)
    expect(rebound.status).toBe(403)
    expect(rebound.body).toContain('only with a control token')
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, 'localhost']) {
      expect((await initializeWithHost(url, host)).status).toBe(200)
    }
    // With a control token, the token is what protects it: any Host (a balancer, a container).
    const guarded = await started({ controlToken: 'mcp-secret' })
    const behind = await initializeWithHost(`${guarded.url}/__sandbox/mcp`, 'sandbox.internal')
    expect(behind.status).toBe(401)
  })

  it('is closed when the control API is closed', async () => {
    const server = await started({ controlClosed: true })
    const closed = await initialize(`${server.url}/__sandbox/mcp`)
    expect(closed.status).toBe(403)
    expect(JSON.stringify(await closed.json())).toContain('The control API is closed')
  })

  it('answers 404 to an MCP session it does not hold, and 400 to a call without one', async () => {
    const server = await started()
    const unknown = await fetch(`${server.url}/__sandbox/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'gone',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    })
    expect(unknown.status).toBe(404)
    const none = await fetch(`${server.url}/__sandbox/mcp`)
    expect(none.status).toBe(400)
  })
})

describe('sessions over /__sandbox/mcp', () => {
  it('keeps two clients on two sessions apart, and useSession moves one onto the other', async () => {
    const server = await started()
    const url = `${server.url}/__sandbox/mcp`
    const first = await connected(url, { 'x-sandbox-session': 'agent-a' })
    const second = await connected(url, { 'x-sandbox-session': 'agent-b' })
    await call(first, 'declineBooking', { persona: 'host', bookingId: anchors.bookings.pending })
    await call(first, 'addFault', { path: '/notifications/*/archive', status: 500 })
    expect(await bookingStatus(first)).toBe('declined')
    expect(await bookingStatus(second)).toBe('pending')
    expect((await call<{ rules: unknown[] }>(second, 'listFaults')).rules).toEqual([])
    // The app's default session saw none of it either.
    const store = await server.sandbox.store('default')
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('pending')

    expect(await call(second, 'useSession', { session: 'agent-a' })).toEqual({
      session: 'agent-a',
      url: server.url,
    })
    expect(await bookingStatus(second)).toBe('declined')
    // A call may still name another session for itself.
    const { items } = await call<{ items: { status: string }[] }>(second, 'readCollection', {
      name: 'bookings',
      where: { id: anchors.bookings.pending },
      session: 'agent-b',
    })
    expect(items[0]?.status).toBe('pending')
  })

  it('closes the least recently used MCP session past the cap', async () => {
    const server = await started({ mcpMaxSessions: 2 })
    const url = `${server.url}/__sandbox/mcp`
    const oldest = await connected(url)
    const middle = await connected(url)
    await call(oldest, 'getClock')
    await connected(url)
    // `oldest` was used last before the third came: `middle` went.
    await expect(call(middle, 'getClock')).rejects.toThrow(/404|session/i)
    expect(await call(oldest, 'getClock')).toHaveProperty('now')
  })

  it('closes an MCP session left idle past the timeout', async () => {
    const server = await started({ mcpIdleTimeoutMs: 200 })
    const idle = await connected(`${server.url}/__sandbox/mcp`)
    expect(await call(idle, 'getClock')).toHaveProperty('now')
    await new Promise((resolve) => setTimeout(resolve, 600))
    await expect(call(idle, 'getClock')).rejects.toThrow(/404|session/i)
  })
})
