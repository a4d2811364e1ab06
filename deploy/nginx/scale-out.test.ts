import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { getPersona } from '../../fixtures/personas.ts'
import { SESSION_COOKIE, SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'
import { ensureNginx } from '../../scripts/find-nginx.ts'
import { call as callTool, connectHttp } from '../../test-support/mcp/test-mcp.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'
import {
  type RunningNginx,
  renderSandboxConf,
  startNginx,
  UPSTREAM_HEADER,
} from './nginx-process.ts'

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
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as unknown,
    /** The instance that answered. */
    at: instances.find(({ port }) => response.headers.get(UPSTREAM_HEADER)?.endsWith(`:${port}`)),
  }
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

describe('the session a request names, read in the order the sandbox reads it, picks the instance', () => {
  const decline = async (session: string | undefined, headers: Record<string, string> = {}) => {
    const { accessToken } = (
      await call('/auth/refresh?dryRun=true', undefined, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: getPersona('host').refreshToken }),
      })
    ).body as { accessToken: string }
    return call(`/bookings/${anchors.bookings.pending}/decline`, session, {
      method: 'POST',
      headers: {
        ...headers,
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
      },
      body: '{}',
    })
  }
  /** A new session `prefix-N` on the instance of `default` (`true`) or on the other one. */
  async function sessionWhere(prefix: string, onDefaults: boolean) {
    const defaults = (await call('/__sandbox/collections', 'default')).at
    for (let index = 0; index < 64; index++) {
      const { at } = await call('/__sandbox/collections', `${prefix}-${index}`)
      if ((at === defaults) === onDefaults) return { id: `${prefix}-${index}`, at: at! }
    }
    throw new Error(`Failed to place a session ${prefix}-N`)
  }

  it('sends every request naming no session to the instance of `default`', async () => {
    const answers = [await decline(undefined), await decline(undefined), await decline(undefined)]
    expect(answers.map(({ status }) => status)).toEqual([201, 409, 409])
    const holder = (await call('/__sandbox/collections', 'default')).at!.port
    expect(answers.map(({ at }) => at?.port)).toEqual([holder, holder, holder])
    const holders = instances.filter((instance) =>
      instance.sandbox.sessionIds().includes('default'),
    )
    expect(holders.map(({ port }) => port)).toEqual([holder])
  })

  it('sends a journal view to the instance of its ?session=, whatever the request names', async () => {
    const viewed = await sessionWhere('viewed', false)
    const other = await sessionWhere('other', true)
    await decline(viewed.id)
    const views = [
      await call(`/__sandbox/requests?session=${viewed.id}`, undefined),
      await call(`/__sandbox/requests?session=${viewed.id}`, undefined),
      await call(`/__sandbox/requests?limit=5&session=${viewed.id}`, other.id),
      await call(`/__sandbox/requests.har?session=${viewed.id}`, undefined, {
        headers: { cookie: `${SESSION_COOKIE}=${other.id}` },
      }),
    ]
    for (const view of views) expect(view.at?.port).toBe(viewed.at.port)
    const entries = views[0]!.body as { session: string; path: string }[]
    expect(entries.map(({ path }) => path)).toContain(
      `/bookings/${anchors.bookings.pending}/decline`,
    )
    expect(new Set(entries.map(({ session }) => session))).toEqual(new Set([viewed.id]))
    expect((views[3]!.body as { log: { entries: unknown[] } }).log.entries.length).toBe(
      entries.length,
    )

    const live = new AbortController()
    const stream = await fetch(`${nginx.url}/__sandbox/events?session=${viewed.id}`, {
      headers: { [SESSION_HEADER]: other.id },
      signal: live.signal,
    })
    expect(stream.headers.get(UPSTREAM_HEADER)).toBe(`127.0.0.1:${viewed.at.port}`)
    live.abort()

    expect(
      (await call(`/__sandbox/requests?session=${viewed.id}`, other.id, { method: 'DELETE' }))
        .status,
    ).toBe(204)
    expect(viewed.at.sandbox.journal.list(viewed.id)).toEqual([])
  })

  it('sends DELETE /__sandbox/sessions/{id} to the instance of that session', async () => {
    const other = await sessionWhere('other', true)
    for (const [index, named] of [undefined, undefined, other.id].entries()) {
      const dropped = await sessionWhere(`dropped-${index}`, false)
      expect(dropped.at.sandbox.sessionIds()).toContain(dropped.id)
      const answer = await call(`/__sandbox/sessions/${dropped.id}`, named, { method: 'DELETE' })
      expect([answer.status, answer.at?.port]).toEqual([204, dropped.at.port])
      for (const instance of instances)
        expect(instance.sandbox.sessionIds()).not.toContain(dropped.id)
    }
  })

  it('reads a quoted, percent-encoded cookie and ?session= as the sandbox decodes them', async () => {
    for (let index = 0; index < 4; index++) {
      const id = `ci:run-${index}`
      const declined = await decline(id)
      expect(declined.status).toBe(201)
      const byCookie = await call('/__sandbox/collections/bookings', undefined, {
        headers: { cookie: `${SESSION_COOKIE}="ci%3Arun-${index}"` },
      })
      expect(byCookie.at?.port).toBe(declined.at?.port)
      const pending = (byCookie.body as { id: string; status: string }[]).find(
        (booking) => booking.id === anchors.bookings.pending,
      )
      expect(pending?.status).toBe('declined')
      const view = await call(`/__sandbox/requests?session=ci%3Arun-${index}`, undefined)
      expect(view.at?.port).toBe(declined.at?.port)
      expect((view.body as unknown[]).length).toBeGreaterThan(0)
    }
  })
})

describe('the documented nginx configuration', () => {
  it('hashes the session consistently, never takes an instance out, and renders for any instances', () => {
    const documented = readFileSync(new URL('./platform-sandbox.conf', import.meta.url), 'utf8')
    const servers = documented.match(/^[ \t]*server [^\s{;]+[^;{]*;/gm) ?? []
    expect(servers.length).toBeGreaterThan(1)
    for (const server of servers) expect(server).toMatch(/ max_fails=0;$/)
    const conf = renderSandboxConf([5001, 5002, 5003], 6000)
    expect(conf).toContain('hash $sandbox_session_key consistent;')
    expect(conf).toMatch(
      /server 127\.0\.0\.1:5001 max_fails=0;\n\s+server 127\.0\.0\.1:5002 max_fails=0;\n\s+server 127\.0\.0\.1:5003 max_fails=0;\n/,
    )
    expect(conf).toContain('listen 127.0.0.1:6000;')
  })
})
