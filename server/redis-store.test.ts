import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StaleCopyError } from '../mocks/core/index.ts'
import { startRedis, type TestRedis } from '../test-support/redis-server.ts'
import { describeStateStore } from '../test-support/state-store.contract.ts'
import { openRedisStore, type RedisState } from './redis-store.ts'

let redis: TestRedis
const opened: RedisState[] = []
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await Promise.all(opened.map((state) => state.close()))
  await redis.stop()
})

/** A store on its own key prefix, as a replica opens it. */
async function open(prefix: string, sessionTtlMs?: number) {
  const state = await openRedisStore(redis.url, { prefix, sessionTtlMs })
  opened.push(state)
  return state
}

describeStateStore('Redis', () => {
  const prefix = `contract-${randomUUID()}:`
  return { open: async () => (await open(prefix)).store }
})

const write = (n: number) => ({
  time: `2026-06-01T10:00:0${n}.000Z`,
  request: {
    method: 'POST',
    url: `/bookings/bkg_${n}/decline`,
    headers: { 'content-type': 'application/json', 'x-sandbox-session': 'qa' },
    body: '{}',
  },
})

describe('the Redis store shared by two processes', () => {
  it('refuses a write from a copy another process wrote since, until that copy is loaded again', async () => {
    const prefix = `shared-${randomUUID()}:`
    const [a, b] = [(await open(prefix)).store.sessions, (await open(prefix)).store.sessions]
    expect(await a.load('qa')).toBeUndefined()
    // Created by the first load anywhere: for the second, a session with no write yet.
    expect(await b.load('qa')).toEqual([])
    await a.write('qa', write(1))
    expect(await a.current!('qa')).toBe(true)
    expect(await b.current!('qa')).toBe(false)
    await expect(b.write('qa', write(2))).rejects.toBeInstanceOf(StaleCopyError)
    expect(await a.load('qa')).toEqual([write(1)])
    expect(await b.load('qa')).toEqual([write(1)])
    await b.write('qa', write(2))
    expect(await a.current!('qa')).toBe(false)
    expect(await a.load('qa')).toEqual([write(1), write(2)])
    // A reset replaces the log whatever copy is held, and makes the other copies stale.
    await b.reset('qa', { scenario: 'empty', seed: 1 })
    expect(await a.current!('qa')).toBe(false)
    expect(await b.current!('qa')).toBe(true)
  })

  it('shares one version check among the reads that wait for it, each check started after its read asked', async () => {
    const prefix = `checks-${randomUUID()}:`
    const [a, b] = [await open(prefix), await open(prefix)]
    await a.store.sessions.write('qa', write(1))
    const before = a.counters.roundTrips
    const reads = await Promise.all(
      Array.from({ length: 20 }, () => a.store.sessions.current!('qa')),
    )
    expect(reads).toEqual(Array(20).fill(true))
    expect(a.counters.roundTrips - before).toBeLessThanOrEqual(2)
    await b.store.sessions.load('qa')
    const first = a.store.sessions.current!('qa')
    await b.store.sessions.write('qa', write(2))
    // Asked after the write: never answered by a check that started before it.
    expect(await a.store.sessions.current!('qa')).toBe(false)
    await first
  })

  it('makes a dropped and written again session stale for a process that held it before', async () => {
    const prefix = `drop-${randomUUID()}:`
    const [a, b] = [(await open(prefix)).store.sessions, (await open(prefix)).store.sessions]
    await a.write('qa', write(1))
    expect(await b.load('qa')).toEqual([write(1)])
    await a.drop('qa')
    await a.write('qa', write(2))
    expect(await b.current!('qa')).toBe(false)
  })

  it('lets the keys of a session unused for the retention expire, and drops it from the list', async () => {
    const state = await open(`ttl-${randomUUID()}:`, 100)
    const { sessions } = state.store
    await sessions.write('qa', write(1))
    expect(await sessions.list()).toEqual(['qa'])
    // Redis expires the keys on its own clock: wait until it has (never past a bound).
    for (let n = 0; n < 100 && (await state.sessionCount()) > 0; n++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      await sessions.list()
    }
    expect(await sessions.list()).toEqual([])
    expect(await sessions.load('qa')).toBeUndefined()
  })

  it('refuses a snapshot name another process took, unless replacing', async () => {
    const prefix = `names-${randomUUID()}:`
    const [a, b] = [(await open(prefix)).store, (await open(prefix)).store]
    const before = await b.keptVersion!()
    await a.snapshots.save('taken', { n: 1 } as never, { replace: false })
    expect(await b.keptVersion!()).not.toBe(before)
    await expect(
      b.snapshots.save('taken', { n: 2 } as never, { replace: false }),
    ).rejects.toMatchObject({
      status: 409,
    })
    await b.snapshots.save('taken', { n: 3 } as never, { replace: true })
    expect(await a.snapshots.list()).toEqual([{ source: expect.any(String), value: { n: 3 } }])
  })

  it('answers 503 with Retry-After while Redis is unreachable, and says it is not ready', async () => {
    const own = await startRedis()
    const state = await openRedisStore(own.url, { prefix: 'down:' })
    try {
      await state.store.sessions.write('qa', write(1))
      expect(await state.ready()).toBe(true)
      await own.stop()
      expect(await state.ready()).toBe(false)
      const failed = state.store.sessions.write('qa', write(2))
      await expect(failed).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '2' } })
      await expect(state.store.sessions.load('qa')).rejects.toMatchObject({ status: 503 })
      expect(state.counters.failures).toBeGreaterThanOrEqual(2)
    } finally {
      await state.close()
    }
  })
})
