/**
 * One view for the team: two replicas on one Redis, each listing (`GET /__sandbox/sessions`)
 * and counting (health's `usage.storeSessions`) every session the store holds, not only the
 * sessions it has answered itself.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { type Replica, replicaAt } from '../test-support/redis-replicas.ts'
import { startRedis, type TestRedis } from '../test-support/redis-server.ts'
import { startTestCli, type TestCli } from '../test-support/server/test-cli.ts'

interface Listed {
  id: string
  scenario: string
  seed: number
}
interface Health {
  scenario: string
  seed: number
  usage: { sessions: number; storeSessions?: number }
}

let redis: TestRedis
let processes: TestCli[] = []
let a: Replica
let b: Replica

beforeAll(async () => {
  redis = await startRedis()
  processes = [0, 1].map(() => startTestCli(['--state', redis.url]))
  ;[a, b] = (await Promise.all(processes.map((cli) => cli.url))).map(replicaAt) as [
    Replica,
    Replica,
  ]
}, 60_000)
afterAll(async () => {
  await Promise.all(processes.map((cli) => cli.stop()))
  await redis.stop()
})

const list = async (replica: Replica, session: string) => {
  const answer = await replica.request<Listed[]>('/__sandbox/sessions', { session })
  expect(answer.status).toBe(200)
  return answer.body
}
const health = async (replica: Replica) => (await replica.request<Health>('/__sandbox/health')).body

describe('one view of the sessions across replicas on one Redis', () => {
  it('lists and counts from either replica the sessions written through the other', async () => {
    const { scenario, seed } = await health(a)
    expect((await health(b)).usage).toMatchObject({ sessions: 0, storeSessions: 0 })

    // Written through A only: a checkout from the starting scenario, and a reset to another.
    const written = `written-${randomUUID()}`
    const token = await a.accessToken('guest', written)
    const checkout = await a.request('/checkout/create-session', {
      method: 'POST',
      authorization: `Bearer ${token}`,
      body: { bookingId: anchors.bookings.accepted },
      session: written,
    })
    expect(checkout.status).toBe(201)
    const reset = `reset-${randomUUID()}`
    const answer = await a.request('/__sandbox/reset', {
      method: 'POST',
      body: { scenario: 'empty', seed: 7 },
      session: reset,
    })
    expect(answer.status).toBe(200)

    // B answered neither: it holds none of them in memory, yet lists both and its caller.
    const caller = `caller-${randomUUID()}`
    expect((await health(b)).usage).toMatchObject({ sessions: 0, storeSessions: 2 })
    const fromB = await list(b, caller)
    expect(fromB).toHaveLength(3)
    expect(fromB).toEqual(
      expect.arrayContaining([
        { id: written, scenario, seed },
        { id: reset, scenario: 'empty', seed: 7 },
        { id: caller, scenario, seed },
      ]),
    )
    expect((await health(b)).usage).toMatchObject({ sessions: 1, storeSessions: 2 })
    // A, which wrote both, lists the same: the store's sessions and its caller, no other.
    const reader = `reader-${randomUUID()}`
    expect(await list(a, reader)).toEqual(
      expect.arrayContaining([
        { id: written, scenario, seed },
        { id: reset, scenario: 'empty', seed: 7 },
        { id: reader, scenario, seed },
      ]),
    )
    expect(await list(a, reader)).not.toContainEqual(expect.objectContaining({ id: caller }))

    // Dropped through B, it goes from A's list and from both counts.
    expect((await b.request(`/__sandbox/sessions/${written}`, { method: 'DELETE' })).status).toBe(
      204,
    )
    const after = await list(a, reader)
    expect(after.map(({ id }) => id)).not.toContain(written)
    expect(after.map(({ id }) => id)).toContain(reset)
    for (const replica of [a, b]) {
      expect((await health(replica)).usage.storeSessions).toBe(1)
    }
  })
})
