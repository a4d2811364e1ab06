import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { SESSION_COOKIE, SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'
import { ensureNginx } from '../../scripts/find-nginx.ts'
import { call as callTool, connectHttp } from '../../test-support/mcp/test-mcp.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'
import { type RunningNginx, renderSandboxConf, startNginx } from './nginx-process.ts'

const SESSIONS = 40
let instances: TestServer[] = []
let nginx: RunningNginx

beforeAll(async () => {
  // Installs Debian's nginx when missing and running as root; otherwise fails saying how.
  const binary = ensureNginx()
  instances = await Promise.all([startTestServer(), startTestServer()])
  nginx = await startNginx(
    binary,
    instances.map((instance) => instance.port),
  )
}, 300_000)
afterAll(async () => {
  await nginx?.stop()
  for (const instance of instances) await instance.close()
})

async function call(path: string, session: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  if (session !== undefined) headers.set(SESSION_HEADER, session)
  const response = await fetch(`${nginx.url}${path}`, { ...init, headers })
  return { status: response.status, headers: response.headers, body: await response.json() }
}

describe('two instances behind nginx, hashing x-sandbox-session', () => {
  it('keeps each session on one instance, isolated from the others', async () => {
    const { accessToken } = (
      await call('/auth/refresh?dryRun=true', undefined, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' }),
      })
    ).body as { accessToken: string }
    const sessions = Array.from({ length: SESSIONS }, (_, index) => `team-${index}`)
    const declining = sessions.filter((_, index) => index % 2 === 0)

    for (const session of sessions) {
      const first = await call('/__sandbox/collections/bookings', session)
      expect(first.headers.get('x-sandbox-session-created')).toBe('true')
      if (declining.includes(session)) {
        const declined = await call(`/bookings/${anchors.bookings.pending}/decline`, session, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: '{}',
        })
        expect(declined.status).toBe(201)
      }
    }

    // Each session lives on exactly one instance, and both instances got some.
    const holders = sessions.map(
      (session) =>
        instances.filter((instance) => instance.sandbox.sessionIds().includes(session)).length,
    )
    expect(holders.every((count) => count === 1)).toBe(true)
    for (const instance of instances) {
      expect(
        instance.sandbox.sessionIds().filter((id) => id.startsWith('team-')).length,
      ).toBeGreaterThan(0)
    }

    // Read back through nginx: every session sees its own writes and nobody else's, and
    // none was created again (it came back to the instance that holds it).
    for (const session of sessions) {
      const again = await call('/__sandbox/collections/bookings', session)
      expect(again.headers.get('x-sandbox-session-created')).toBeNull()
      const pending = (again.body as { id: string; status: string }[]).find(
        (booking) => booking.id === anchors.bookings.pending,
      )
      expect(pending?.status, session).toBe(declining.includes(session) ? 'declined' : 'pending')
    }
  })

  it('sends the sandbox_session cookie to the same instance as the header', async () => {
    await call('/__sandbox/reset', 'cookie-1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"scenario":"empty"}',
    })
    const byCookie = await call('/__sandbox/collections/bookings', undefined, {
      headers: { cookie: `${SESSION_COOKIE}=cookie-1` },
    })
    expect(byCookie.body).toEqual([])
  })
})

describe('MCP clients behind nginx, each sending its x-sandbox-session', () => {
  it('reach the instance that holds their session, where the app sees what they did', async () => {
    const sessions = Array.from({ length: 6 }, (_, index) => `agent-${index}`)
    const clients = await Promise.all(
      sessions.map((session) =>
        connectHttp(`${nginx.url}/__sandbox/mcp`, { [SESSION_HEADER]: session }),
      ),
    )
    try {
      for (const [index, client] of clients.entries()) {
        expect(await callTool(client, 'getSession')).toEqual({
          session: sessions[index],
          url: nginx.url,
        })
        if (index % 2 === 0) {
          const declined = await callTool<{ status: number }>(client, 'declineBooking', {
            persona: 'host',
            bookingId: anchors.bookings.pending,
          })
          expect(declined.status).toBe(201)
        } else {
          await callTool(client, 'listCollections')
        }
      }
      // Each session lives on exactly one instance, the one its app traffic goes to.
      for (const [index, session] of sessions.entries()) {
        const holders = instances.filter((instance) =>
          instance.sandbox.sessionIds().includes(session),
        )
        expect(holders, session).toHaveLength(1)
        const app = await call('/__sandbox/collections/bookings', session)
        expect(app.headers.get('x-sandbox-session-created'), session).toBeNull()
        const pending = (app.body as { id: string; status: string }[]).find(
          (booking) => booking.id === anchors.bookings.pending,
        )
        expect(pending?.status, session).toBe(index % 2 === 0 ? 'declined' : 'pending')
      }
    } finally {
      for (const client of clients) await client.close()
    }
  })
})

describe('the documented nginx configuration', () => {
  it('hashes the session consistently and renders for any instances', () => {
    const conf = renderSandboxConf([5001, 5002, 5003], 6000)
    expect(conf).toContain('hash $sandbox_session_key consistent;')
    expect(conf).toMatch(
      /server 127\.0\.0\.1:5001;\n\s+server 127\.0\.0\.1:5002;\n\s+server 127\.0\.0\.1:5003;/,
    )
    expect(conf).toContain('listen 127.0.0.1:6000;')
  })
})
