import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import type { LoggedWrite, StateStore } from '../mocks/core/index.ts'
import { SESSION_HEADER } from '../mocks/core/index.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { signIn } from '../mocks/sandbox-client/sandbox-client.ts'
import { startRedis, type TestRedis } from '../test-support/redis-server.ts'
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

const checkout = (session: string, token: string) => ({
  method: 'POST',
  url: '/checkout/create-session',
  headers: {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    [SESSION_HEADER]: session,
  },
  body: JSON.stringify({ bookingId: anchors.bookings.accepted }),
})

describe('a replica whose copy another keeps making stale', () => {
  it('answers a write again on the session loaded anew, and 503 with Retry-After when stale twice, nothing written', async () => {
    const prefix = `stale-${randomUUID()}:`
    const [a, b] = await Promise.all([
      openRedisStore(redis.url, { prefix }),
      openRedisStore(redis.url, { prefix }),
    ])
    opened.push(a, b)
    const session = 'busy'
    let token = ''
    /** The other replica writes the session: load, then a checkout logged. */
    const otherWrites = async () => {
      await b.store.sessions.load(session)
      const write: LoggedWrite = {
        time: new Date().toISOString(),
        request: checkout(session, token),
      }
      await b.store.sessions.write(session, write)
    }
    // Each time this replica loads the session, the other one writes it right after.
    let interfere = 0
    const store: StateStore = {
      ...a.store,
      sessions: {
        ...a.store.sessions,
        async load(id) {
          const changes = await a.store.sessions.load(id)
          if (interfere-- > 0) await otherWrites()
          return changes
        },
      },
    }
    const sandbox = createSandbox({ store })
    await sandbox.ready
    token = await signIn(sandbox, 'guest')
    const count = async () => (await sandbox.store(session)).checkoutSessions.count()
    const before = await count()

    // Stale once: the write is refused, the session loaded again (the other writes no more).
    await otherWrites()
    const once = await sandbox.handle(checkout(session, token))
    expect(once.status).toBe(201)
    expect(await count()).toBe(before + 2)

    // Stale twice: the other replica writes again right after the reload.
    await otherWrites()
    interfere = 1
    const twice = await sandbox.handle(checkout(session, token))
    expect(twice.status).toBe(503)
    expect(twice.headers['retry-after']).toBe('1')
    expect((twice.body as { code: string }).code).toBe('SERVICE_UNAVAILABLE')
    // The other replica's two writes, not this one's.
    const log = (await b.store.sessions.load(session)) ?? []
    expect(log.length).toBe(4)
    expect(await count()).toBe(before + 4)
  })
})
