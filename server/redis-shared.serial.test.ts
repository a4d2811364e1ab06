/**
 * Three replicas on one Redis share what a session holds besides its records: its fault rules
 * (their fired counts too), its clock and its journal, whichever replica set, fired or answered.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkout, type Replica, replicaAt } from '../test-support/redis-replicas.ts'
import { startRedis, type TestRedis } from '../test-support/redis-server.ts'
import { startTestCli, type TestCli } from '../test-support/server/test-cli.ts'

let redis: TestRedis
let processes: TestCli[] = []
let urls: string[] = []
let a: Replica
let b: Replica
let c: Replica

beforeAll(async () => {
  redis = await startRedis()
  processes = [0, 1, 2].map(() => startTestCli(['--state', redis.url]))
  urls = await Promise.all(processes.map((cli) => cli.url))
  ;[a, b, c] = urls.map((url) => replicaAt(url)) as [Replica, Replica, Replica]
}, 60_000)
afterAll(async () => {
  await Promise.all(processes.map((cli) => cli.stop()))
  await redis.stop()
})

const FAULT_HEADER = 'x-sandbox-fault'
const STATUS_PATH = '/payprov/account-status'

/** A read the host may make (no write: parallel calls never contend for the session). */
const accountStatus = (replica: Replica, session: string, token: string) =>
  replica.request(STATUS_PATH, { authorization: `Bearer ${token}`, session })

interface ListedRule {
  id: string
  fired: number
  remaining?: number
}

const rules = async (replica: Replica, session: string) =>
  (await replica.request<ListedRule[]>('/__sandbox/faults', { session })).body

/** Adds a fault rule to `session` through `replica`. */
const addRule = (
  replica: Replica,
  session: string,
  rule: { path: string; status: number; times?: number },
) => replica.request('/__sandbox/faults', { method: 'POST', session, body: rule })

describe('replicas on one Redis, a session of the team', () => {
  it('fire a fault rule set through one replica on a request another answers, counted for all', async () => {
    const session = `faults-${randomUUID()}`
    const token = await a.accessToken('host', session)
    expect((await accountStatus(b, session, token)).status).toBe(200)
    const added = await addRule(a, session, { path: STATUS_PATH, status: 503, times: 1 })
    expect(added.status).toBe(201)
    expect(await rules(c, session)).toEqual([
      expect.objectContaining({ id: 'f1', fired: 0, remaining: 1 }),
    ])

    const faulted = await accountStatus(b, session, token)
    expect(faulted.status).toBe(503)
    expect(faulted.headers.get(FAULT_HEADER)).toBe('f1')
    // Fired once in all: no replica fires it again.
    for (const replica of [a, b, c])
      expect((await accountStatus(replica, session, token)).status).toBe(200)
    for (const replica of [a, b, c]) {
      expect(await rules(replica, session)).toEqual([
        expect.objectContaining({ id: 'f1', fired: 1, remaining: 0 }),
      ])
    }
  })

  it('fire a rule set through one replica on a write another answers from its cached copy', async () => {
    const session = `write-${randomUUID()}`
    const token = await a.accessToken('guest', session)
    // B holds the session in memory, then A adds a rule B's copy does not have.
    expect((await checkout(b, session, token)).status).toBe(201)
    const added = await addRule(a, session, {
      path: '/checkout/create-session',
      status: 503,
      times: 1,
    })
    expect(added.status).toBe(201)
    const before = (await a.request('/__sandbox/collections/checkoutSessions', { session })).body

    // B's write is refused as stale, and passes again on the session loaded anew: the rule fires.
    const faulted = await checkout(b, session, token)
    expect(faulted.status).toBe(503)
    expect(faulted.headers.get(FAULT_HEADER)).toBe('f1')
    const after = (await c.request('/__sandbox/collections/checkoutSessions', { session })).body
    expect(after).toEqual(before)
    expect(await rules(a, session)).toEqual([
      expect.objectContaining({ id: 'f1', fired: 1, remaining: 0 }),
    ])
    expect((await checkout(b, session, token)).status).toBe(201)
  })

  it('fire a times: 1 rule once in all under parallel requests to every replica', async () => {
    const session = `once-${randomUUID()}`
    const token = await a.accessToken('host', session)
    const added = await addRule(b, session, { path: STATUS_PATH, status: 503, times: 1 })
    expect(added.status).toBe(201)
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => accountStatus([a, b, c][n % 3]!, session, token)),
    )
    const faulted = answers.filter((answer) => answer.headers.get(FAULT_HEADER) === 'f1')
    expect(faulted.map((answer) => answer.status)).toEqual([503])
    // The others answered as the operation does: a read takes no retry.
    expect(answers.filter((each) => !faulted.includes(each)).map((each) => each.status)).toEqual(
      Array(11).fill(200),
    )
    expect(await rules(c, session)).toEqual([
      expect.objectContaining({ id: 'f1', fired: 1, remaining: 0 }),
    ])
  })

  it('answer on the clock set through another replica, and a reset through one clears it and the rules for all', async () => {
    const session = `clock-${randomUUID()}`
    const set = await a.request<{ offsetSeconds: number; real: boolean }>('/__sandbox/clock', {
      method: 'POST',
      session,
      body: { now: '2031-01-01T00:00:00.000Z' },
    })
    expect(set.status).toBe(200)
    // Signed in on the clock moved (a token of real time has expired by 2031).
    const token = await c.accessToken('guest', session)
    // The first request of the session B answers: B loads it, its clock with it.
    expect((await checkout(b, session, token)).status).toBe(201)
    const opened = await c.collection<{ createdAt: string }>('checkoutSessions', session)
    expect(opened.at(-1)!.createdAt.startsWith('2031-01-01T')).toBe(true)
    await vi.waitFor(
      async () => {
        const journal = await a.request<{ path: string; time: string }[]>(
          `/__sandbox/requests?session=${session}`,
        )
        const entry = journal.body.find(({ path }) => path === '/checkout/create-session')
        expect(entry?.time.startsWith('2031-01-01T')).toBe(true)
      },
      { timeout: 10_000, interval: 50 },
    )
    const clock = await b.request<{ offsetSeconds: number; real: boolean }>('/__sandbox/clock', {
      session,
    })
    expect(clock.body).toMatchObject({ offsetSeconds: set.body.offsetSeconds, real: false })

    const added = await addRule(c, session, { path: STATUS_PATH, status: 503 })
    expect(added.status).toBe(201)
    expect(await rules(a, session)).toHaveLength(1)

    expect(
      (await b.request('/__sandbox/reset', { method: 'POST', session, body: {} })).status,
    ).toBe(200)
    expect(await rules(a, session)).toEqual([])
    expect((await a.request('/__sandbox/clock', { session })).body).toMatchObject({ real: true })
    const host = await a.accessToken('host', session)
    expect((await accountStatus(a, session, host)).headers.get(FAULT_HEADER)).toBeNull()
  })

  it("read a request one replica answered in another's journal, merged journal and HAR export", async () => {
    const session = `journal-${randomUUID()}`
    const token = await a.accessToken('host', session)
    const marker = `/payprov/account-status`
    expect((await accountStatus(a, session, token)).status).toBe(200)
    interface Entry {
      path: string
      session: string
      status: number
    }
    await vi.waitFor(
      async () => {
        const own = await b.request<Entry[]>(`/__sandbox/requests?session=${session}`)
        expect(own.body).toContainEqual(
          expect.objectContaining({ path: marker, session, status: 200 }),
        )
        const merged = await b.request<Entry[]>('/__sandbox/requests')
        expect(merged.body).toContainEqual(expect.objectContaining({ path: marker, session }))
      },
      { timeout: 10_000, interval: 50 },
    )
    const har = await b.request<{ log: { entries: { request: { url: string } }[] } }>(
      `/__sandbox/requests.har?session=${session}`,
    )
    expect(har.status).toBe(200)
    expect(har.body.log.entries.map((entry) => new URL(entry.request.url).pathname)).toContain(
      marker,
    )

    // Emptied through one, empty on every replica.
    const cleared = await c.request(`/__sandbox/requests?session=${session}`, { method: 'DELETE' })
    expect(cleared.body).toBe(undefined)
    expect(cleared.status).toBe(204)
    expect((await a.request<Entry[]>(`/__sandbox/requests?session=${session}`)).body).toEqual([])
  })

  it("show on one replica's live journal a request another answered", async () => {
    const session = `live-${randomUUID()}`
    const token = await a.accessToken('host', session)
    const stop = new AbortController()
    const live = await fetch(`${urls[1]}/__sandbox/events?session=${session}`, {
      signal: stop.signal,
    })
    expect(live.status).toBe(200)
    let received = ''
    const reader = live.body!.getReader()
    const decoder = new TextDecoder()
    const reading = (async () => {
      for (let read = await reader.read(); !read.done; read = await reader.read())
        received += decoder.decode(read.value)
    })().catch(() => undefined)
    // The stream subscribes as it opens: a request sent before that is not shown, so resend.
    await vi.waitFor(
      async () => {
        expect((await accountStatus(a, session, token)).status).toBe(200)
        expect(received).toContain('event: requests')
        expect(received).toContain(`"session":"${session}"`)
      },
      { timeout: 10_000, interval: 100 },
    )
    stop.abort()
    await reading
  })
})
