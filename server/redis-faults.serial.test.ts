/**
 * What a replica on Redis promises when a part dies under load: a replica killed (`kill -9`)
 * loses no write it acknowledged, and Redis killed and restarted (append-only file, `appendfsync
 * always`) answers 503 with `Retry-After` meanwhile, never a 500, and gives every acknowledged
 * write back.
 */
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { type Replica, replicaAt } from '../test-support/redis-replicas.ts'
import { startRedis, type TestRedis } from '../test-support/redis-server.ts'
import { startTestCli } from '../test-support/server/test-cli.ts'

const started: { stop(): Promise<unknown> }[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((part) => part.stop()))
})

async function cluster(replicaCount: number, appendonly: boolean) {
  const redis: TestRedis = await startRedis({ appendonly })
  started.push(redis)
  const processes = Array.from({ length: replicaCount }, () => startTestCli(['--state', redis.url]))
  started.push(...processes)
  const replicas = (await Promise.all(processes.map((cli) => cli.url))).map(replicaAt)
  return { redis, processes, replicas }
}

const checkouts = async (replica: Replica, session: string) =>
  (await replica.request<Record<string, number>>('/__sandbox/collections', { session })).body
    .checkoutSessions!

interface Tally {
  acknowledged: number
  /** Answers that were neither 201 nor a refusal: none expected. */
  other: number[]
  /** 503s, each with its `Retry-After`. */
  unavailable: (string | null)[]
  /** Requests that got no answer (the process was gone). */
  unanswered: number
}

/** One guest's checkout in `session` through `replica`, tallied. */
async function checkout(replica: Replica, session: string, token: string, tally: Tally) {
  try {
    const answer = await replica.request('/checkout/create-session', {
      method: 'POST',
      authorization: `Bearer ${token}`,
      body: { bookingId: anchors.bookings.accepted },
      session,
    })
    if (answer.status === 201) tally.acknowledged++
    else if (answer.status === 503) tally.unavailable.push(answer.headers.get('retry-after'))
    else tally.other.push(answer.status)
    return answer.status
  } catch {
    tally.unanswered++
    return 0
  }
}

const newTally = (): Tally => ({ acknowledged: 0, other: [], unavailable: [], unanswered: 0 })

describe('replicas on Redis when a part dies', () => {
  it('lose no acknowledged write when a replica is killed under load', async () => {
    const { processes, replicas } = await cluster(2, false)
    const [, survivor] = replicas as [Replica, Replica]
    const jobs = 6
    const writes = 40
    let total = 0
    let killed = false
    const results = await Promise.all(
      Array.from({ length: jobs }, async (_, job) => {
        const session = `kill-${job}-${randomUUID()}`
        const token = await survivor.accessToken('guest', session)
        const before = await checkouts(survivor, session)
        const tally = newTally()
        for (let n = 0; n < writes; n++) {
          // Round robin until the first replica is gone, then the survivor alone.
          const replica = killed ? survivor : replicas[(job + n) % 2]!
          const status = await checkout(replica, session, token, tally)
          if (status === 201 && ++total === (jobs * writes) / 3 && !killed) {
            killed = true
            processes[0]!.child.kill('SIGKILL')
          }
        }
        return { tally, seen: (await checkouts(survivor, session)) - before }
      }),
    )
    expect(killed).toBe(true)
    for (const { tally, seen } of results) {
      expect(tally.other).toEqual([])
      // Every acknowledged write is there; at most those cut off at the kill were applied unanswered.
      expect(seen).toBeGreaterThanOrEqual(tally.acknowledged)
      expect(seen).toBeLessThanOrEqual(tally.acknowledged + tally.unanswered)
      expect(tally.unanswered).toBeLessThanOrEqual(1)
    }
  })

  it('answers 503 with Retry-After while Redis is down, and gives every acknowledged write back after its restart', async () => {
    const { redis, replicas } = await cluster(2, true)
    const [a, b] = replicas as [Replica, Replica]
    const session = `redis-${randomUUID()}`
    const token = await a.accessToken('guest', session)
    const before = await checkouts(b, session)
    const tally = newTally()
    for (let n = 0; n < 10; n++) await checkout(replicas[n % 2]!, session, token, tally)
    expect(tally.acknowledged).toBe(10)

    await redis.kill()
    const down = newTally()
    for (let n = 0; n < 10; n++) await checkout(replicas[n % 2]!, session, token, down)
    const read = await b.request('/__sandbox/collections', { session })
    expect(read.status).toBe(503)
    expect(read.body.code).toBe('SERVICE_UNAVAILABLE')
    expect(down.acknowledged).toBe(0)
    expect(down.other).toEqual([])
    expect(down.unanswered).toBe(0)
    expect(down.unavailable).toEqual(Array(10).fill('2'))
    // Liveness does not depend on the store.
    expect((await a.request('/__sandbox/health')).status).toBe(200)

    await redis.restart()
    // Each replica reconnects by itself: writes are acknowledged again, through both.
    const after = newTally()
    for (const replica of [a, b]) {
      while ((await checkout(replica, session, token, after)) !== 201) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    expect(after.other).toEqual([])
    const acknowledged = tally.acknowledged + after.acknowledged
    for (const replica of [a, b]) {
      expect((await checkouts(replica, session)) - before).toBe(acknowledged)
    }
  })
})
