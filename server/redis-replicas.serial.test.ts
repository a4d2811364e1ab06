/**
 * Three `platform-sandbox` processes on one Redis (`--state redis://...`), as replicas behind a
 * round-robin balancer: whichever answers, a session reads the same.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { checkout, type Replica, replicaAt } from '../test-support/redis-replicas.ts'
import { startRedis, type TestRedis } from '../test-support/redis-server.ts'
import { startTestCli, type TestCli } from '../test-support/server/test-cli.ts'

let redis: TestRedis
let processes: TestCli[] = []
let replicas: Replica[] = []

beforeAll(async () => {
  redis = await startRedis()
  processes = [0, 1, 2].map(() => startTestCli(['--state', redis.url]))
  replicas = (await Promise.all(processes.map((cli) => cli.url))).map(replicaAt)
}, 60_000)
afterAll(async () => {
  await Promise.all(processes.map((cli) => cli.stop()))
  await redis.stop()
})

const counts = async (replica: Replica, session: string) =>
  (await replica.request<Record<string, number>>('/__sandbox/collections', { session })).body

describe('replicas on one Redis', () => {
  it('read every write made through another, round robin', async () => {
    const session = `ryw-${randomUUID()}`
    const [a, b, c] = replicas as [Replica, Replica, Replica]
    const before = (await counts(c, session)).checkoutSessions!
    const token = await a.accessToken('guest', session)
    for (let n = 1; n <= 6; n++) {
      const writer = replicas[n % 3]!
      expect((await checkout(writer, session, token)).status).toBe(201)
      // Every replica, the one that wrote and the two that did not, sees it at once.
      for (const reader of [a, b, c]) {
        expect((await counts(reader, session)).checkoutSessions).toBe(before + n)
      }
    }
  })

  it('say a session was created once, on the replica that answered it first', async () => {
    const session = `created-${randomUUID()}`
    const [a, b, c] = replicas as [Replica, Replica, Replica]
    const created = async (replica: Replica) =>
      (await replica.request('/payprov/account-status', { session })).headers.get(
        'x-sandbox-session-created',
      )
    expect(await created(a)).toBe('true')
    expect(await created(b)).toBeNull()
    expect(await created(c)).toBeNull()
    expect(await created(a)).toBeNull()
  })

  it('answer 201 then 409 for one booking declined through two replicas', async () => {
    const session = `decline-${randomUUID()}`
    const [a, b] = replicas as [Replica, Replica]
    // Both replicas hold the session in memory before either declines.
    const token = await a.accessToken('host', session)
    await counts(b, session)
    const decline = (replica: Replica) =>
      replica.request(`/bookings/${anchors.bookings.pending}/decline`, {
        method: 'POST',
        authorization: `Bearer ${token}`,
        body: { reason: 'Fully booked' },
        session,
      })
    expect((await decline(a)).status).toBe(201)
    const second = await decline(b)
    expect(second.status).toBe(409)
    expect(second.body.message).toContain('is declined')
  })

  it('lose no write and apply none twice under parallel jobs round robin', async () => {
    const jobs = 12
    const writes = 10
    const results = await Promise.all(
      Array.from({ length: jobs }, async (_, job) => {
        const session = `job-${job}-${randomUUID()}`
        const token = await replicas[job % 3]!.accessToken('guest', session)
        const before = (await counts(replicas[0]!, session)).checkoutSessions!
        let acknowledged = 0
        for (let n = 0; n < writes; n++) {
          if ((await checkout(replicas[(job + n) % 3]!, session, token)).status === 201)
            acknowledged++
        }
        const after = await Promise.all(replicas.map((replica) => counts(replica, session)))
        return { acknowledged, seen: after.map((count) => count.checkoutSessions! - before) }
      }),
    )
    for (const { acknowledged, seen } of results) {
      expect(acknowledged).toBe(writes)
      expect(seen).toEqual([writes, writes, writes])
    }
  })

  it('share saved snapshots and uploaded scenarios; a name taken twice is a 409', async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica]
    const session = `snap-${randomUUID()}`
    const name = `snap-${randomUUID().slice(0, 8)}`
    const token = await a.accessToken('guest', session)
    await checkout(a, session, token)
    const saved = await counts(a, session)
    const save = (replica: Replica) =>
      replica.request('/__sandbox/snapshots', { method: 'POST', body: { name }, session })
    expect((await save(a)).status).toBe(201)
    expect((await save(b)).status).toBe(409)
    const listed = await c.request<{ name: string }[]>('/__sandbox/snapshots')
    expect(listed.body.map((snapshot) => snapshot.name)).toContain(name)
    // Reset through another replica, read through a third.
    const other = `other-${randomUUID()}`
    const reset = await c.request('/__sandbox/reset', {
      method: 'POST',
      body: { snapshot: name },
      session: other,
    })
    expect(reset.status).toBe(200)
    expect(await counts(b, other)).toEqual(saved)

    const scenario = `team-${randomUUID().slice(0, 8)}`
    const uploaded = await a.request('/__sandbox/scenarios', {
      method: 'POST',
      body: { name: scenario, description: 'Shared by the team', extends: 'empty' },
    })
    expect(uploaded.status).toBe(201)
    const third = `scenario-${randomUUID()}`
    const started = await b.request('/__sandbox/reset', {
      method: 'POST',
      body: { scenario },
      session: third,
    })
    expect(started.status).toBe(200)
    expect((await counts(c, third)).bookings).toBe(0)
    const names = (await c.request<{ name: string }[]>('/__sandbox/scenarios')).body
    expect(names.map((entry) => entry.name)).toContain(scenario)
  })

  it('win over a state directory given too, and the banner says so', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'sandbox-redis-wins-'))
    const directory = join(parent, 'state')
    try {
      const cli = startTestCli(['--state-dir', directory, '--state', redis.url])
      await cli.url
      const { stdout } = await cli.stop()
      expect(stdout).toContain(`State in Redis ${redis.url}`)
      expect(stdout).toContain(`(the state directory ${directory} is not used)`)
      expect(existsSync(directory)).toBe(false)
    } finally {
      rmSync(parent, { recursive: true, force: true })
    }
  })

  it('do not start without their Redis, and say which', async () => {
    const gone = await startRedis()
    await gone.stop()
    const cli = startTestCli(['--state', gone.url])
    const { code, stderr } = await cli.exited
    expect(code).toBe(1)
    expect(stderr).toMatch(
      new RegExp(`^platform-sandbox: cannot reach Redis at ${gone.url} \\(.*\\): check --state\n$`),
    )
  })
})
