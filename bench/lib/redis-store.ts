/**
 * @module
 * One server on Redis (`--state redis://`, a `redis-server` of its own on this machine) beside
 * the same server in memory, in the same run: GET and POST throughput of one cached session,
 * and the Redis round trips a read and a write of a cached session cost (counted by the store).
 */
import { anchors } from '../../fixtures/anchors.ts'
import { SESSION_HEADER } from '../../mocks/core/index.ts'
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'
import { startServer } from '../../server/start-server.ts'
import { REDIS_SERVER, startRedis } from '../../test-support/redis-server.ts'
import { measureLoad } from './load.ts'
import type { Pinning } from './pinning.ts'
import type { Figure } from './report.ts'
import { startChildServer } from './servers.ts'
import { load, loadRounds, servers } from './settings.ts'

const SESSION = 'bench-redis'
const COUNTED_REQUESTS = 200

/** The requests measured: the host's payment account read, a guest's checkout opened. */
async function targetsOn(url: string) {
  const client = createSandboxClient({ baseUrl: url })
  const headers = async (persona: 'host' | 'guest') => ({
    authorization: `Bearer ${await client.accessToken(persona, SESSION)}`,
    [SESSION_HEADER]: SESSION,
    'content-type': 'application/json',
  })
  return {
    GET: {
      method: 'GET' as const,
      path: '/payprov/account-status',
      headers: await headers('host'),
      status: 200,
    },
    POST: {
      method: 'POST' as const,
      path: '/checkout/create-session',
      headers: await headers('guest'),
      body: JSON.stringify({ bookingId: anchors.bookings.accepted }),
      status: 201,
    },
  }
}

/** Round trips per request of a cached session, read from the store's counters. */
async function roundTrips(redisUrl: string) {
  const running = await startServer({ port: 0, quiet: true, state: redisUrl })
  try {
    const { GET, POST } = await targetsOn(running.url)
    const per = async (target: typeof GET | typeof POST) => {
      const send = () =>
        fetch(`${running.url}${target.path}`, {
          method: target.method,
          headers: target.headers,
          body: 'body' in target ? (target.body as string) : null,
        }).then((answer) => answer.arrayBuffer())
      await send() // the session is in memory from here on
      // Awaited round trips: the journal's batches (every 50 ms at most, not waited for) apart.
      const { counters } = running.stateStore!
      const before = counters.roundTrips - counters.journalBatches
      for (let n = 0; n < COUNTED_REQUESTS; n++) await send()
      return (counters.roundTrips - counters.journalBatches - before) / COUNTED_REQUESTS
    }
    return { read: await per(GET), write: await per(POST) }
  } finally {
    await running.close()
  }
}

export async function measureRedisStore(pinning: Pinning): Promise<Figure[]> {
  const redis = await startRedis()
  try {
    const { script, args } = servers.sandbox
    // Alternating rounds, the best of each kept: this machine's other load moves both alike.
    const throughput = { memory: { GET: 0, POST: 0 }, Redis: { GET: 0, POST: 0 } }
    for (let round = 0; round < loadRounds; round++) {
      for (const [label, extra] of [
        ['memory', []],
        ['Redis', ['--state', redis.url]],
      ] as const) {
        const server = await startChildServer(pinning, script, [...args, ...extra])
        try {
          const chosen = await targetsOn(server.url)
          for (const method of ['GET', 'POST'] as const) {
            const { requestsPerSecond } = await measureLoad(server.url, chosen[method], load)
            throughput[label][method] = Math.max(throughput[label][method], requestsPerSecond)
          }
        } finally {
          await server.stop()
        }
      }
    }
    const trips = await roundTrips(redis.url)
    const group = 'state in Redis'
    const note = `${REDIS_SERVER} on this machine, no persistence; one session, ${load.connections} connections, best of ${loadRounds} alternating runs`
    return [
      {
        group,
        name: 'GET throughput',
        value: throughput.Redis.GET,
        unit: 'req/s',
        baselineName: 'in memory',
        baseline: throughput.memory.GET,
        goal: { kind: 'min', ratio: 0.5 },
        note,
      },
      {
        group,
        name: 'POST throughput',
        value: throughput.Redis.POST,
        unit: 'req/s',
        baselineName: 'in memory',
        baseline: throughput.memory.POST,
      },
      {
        group,
        name: 'round trips per read',
        value: trips.read,
        unit: 'round trips',
        baselineName: 'one',
        baseline: 1,
        goal: { kind: 'max', ratio: 1 },
        note: `GET /payprov/account-status of a session in memory, ${COUNTED_REQUESTS} requests`,
      },
      {
        group,
        name: 'round trips per write',
        value: trips.write,
        unit: 'round trips',
        baselineName: 'one',
        baseline: 1,
        goal: { kind: 'max', ratio: 1 },
        note: `POST /checkout/create-session of a session in memory, ${COUNTED_REQUESTS} requests`,
      },
    ]
  } finally {
    await redis.stop()
  }
}
