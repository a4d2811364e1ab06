/**
 * The nginx configuration for replicas on a shared store (`platform-sandbox-replicas.conf`):
 * round robin; nginx's default retry (a GET that failed on one replica is answered by another,
 * a POST is retried only when it was never sent, so none is applied twice); its own errors as
 * the API's 503 with `Retry-After`. The replicas here each keep their state in memory: what is
 * tested is the balancer, not the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureNginx } from '../../scripts/find-nginx.ts'
import {
  createTestClient,
  startTestServer,
  type TestClient,
  type TestServer,
} from '../../test-support/server/test-server.ts'
import { type RunningNginx, startNginx, UPSTREAM_HEADER } from './nginx-process.ts'

const REPLICAS = new URL('./platform-sandbox-replicas.conf', import.meta.url)
const FOLLOW = '/users/usr_guest/follow?dryRun=true'

let replicas: TestServer[] = []
let nginx: RunningNginx
let client: TestClient

beforeAll(async () => {
  const binary = ensureNginx()
  replicas = await Promise.all([startTestServer(), startTestServer()])
  nginx = await startNginx(
    binary,
    replicas.map((replica) => replica.port),
    REPLICAS,
  )
  client = createTestClient(nginx.url)
}, 300_000)
afterAll(async () => {
  await nginx?.stop()
  for (const replica of replicas) await replica.close()
})

const addressOf = (replica: TestServer) => `127.0.0.1:${replica.port}`

/** Adds a rule that resets the connection, on one replica directly. */
async function resetOn(replica: TestServer, session: string, method: 'GET' | 'POST', path: string) {
  const added = await replica.request('/__sandbox/faults', {
    session,
    body: { method, path, networkError: true },
  })
  expect(added.status).toBe(201)
}

/** The requests a replica journaled for `session`. */
async function journaled(replica: TestServer, session: string) {
  const journal = await replica.request<{ path: string; fault?: string }[]>(
    `/__sandbox/requests?session=${session}`,
  )
  return journal.body.filter((entry) => !entry.path.startsWith('/__sandbox'))
}

describe('replicas on a shared store behind nginx', () => {
  it('balances round robin, whatever the session', async () => {
    const answered: string[] = []
    for (let i = 0; i < 6; i++) {
      const answer = await client.request('/payprov/account-status', { as: 'host', session: 'rr' })
      expect(answer.status).toBe(200)
      answered.push(String(answer.headers[UPSTREAM_HEADER]))
    }
    expect(new Set(answered)).toEqual(new Set(replicas.map(addressOf)))
    for (let i = 1; i < answered.length; i++) expect(answered[i]).not.toBe(answered[i - 1])
  })

  it('answers a GET whose replica reset the connection from another replica', async () => {
    const [first] = replicas
    await resetOn(first!, 'get-retry', 'GET', '/payprov/account-status')
    for (let i = 0; i < 4; i++) {
      const answer = await client.request('/payprov/account-status', {
        as: 'host',
        session: 'get-retry',
      })
      expect(answer.status).toBe(200)
    }
    // The first replica took (and reset) some of them; nginx sent each again to the other.
    const reset = (await journaled(first!, 'get-retry')).filter((entry) => entry.fault)
    expect(reset.length).toBeGreaterThan(0)
  })

  it('never sends again a POST a replica may have applied: one attempt, the API 503', async () => {
    for (const replica of replicas) {
      await resetOn(replica, 'post-once', 'POST', '/users/usr_guest/follow')
    }
    const answer = await client.request(FOLLOW, { as: 'host', session: 'post-once', body: {} })
    expect(answer.status).toBe(503)
    expect(answer.headers['retry-after']).toBe('1')
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    const attempts = await Promise.all(replicas.map((replica) => journaled(replica, 'post-once')))
    expect(attempts.flat()).toHaveLength(1)
    // The replica that reset it is not taken out for everyone (`max_fails=0`).
    const next = await Promise.all(
      [0, 1].map(() => client.request('/payprov/account-status', { as: 'host', session: 'rr' })),
    )
    expect(new Set(next.map((answer) => answer.headers[UPSTREAM_HEADER]))).toEqual(
      new Set(replicas.map(addressOf)),
    )
  })

  it('sends a POST to another replica when one is down (never sent), and answers 503 when all are', async () => {
    const [, second] = replicas
    await second!.close()
    for (let i = 0; i < 4; i++) {
      const posted = await client.request(FOLLOW, { as: 'host', session: 'down', body: {} })
      expect(posted.status).toBe(201)
      const read = await client.request('/payprov/account-status', { as: 'host', session: 'down' })
      expect(read.status).toBe(200)
      expect(String(read.headers[UPSTREAM_HEADER])).toMatch(
        new RegExp(`${addressOf(replicas[0]!)}$`),
      )
    }
    // Each POST applied once, on the replica left.
    expect(
      (await journaled(replicas[0]!, 'down')).filter((entry) => entry.path.endsWith('/follow')),
    ).toHaveLength(4)
    await replicas[0]!.close()
    const none = await client.request('/payprov/account-status', { as: 'host', session: 'down' })
    expect(none.status).toBe(503)
    expect(none.headers['retry-after']).toBe('1')
    expect(none.body).toEqual({
      message: expect.stringContaining('No sandbox replica answered'),
      code: 'SERVICE_UNAVAILABLE',
    })
  })
})
