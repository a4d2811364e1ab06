/**
 * A rolling restart of three replicas on one Redis behind the shipped replicas configuration
 * (`platform-sandbox-replicas.conf`): under a parallel load of reads and writes, each replica in
 * turn gets SIGTERM and is started again on its port. No read fails; a write fails only as the
 * balancer's or the sandbox's 502/503 with `Retry-After`; every acknowledged write is in the
 * state afterwards, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { ensureNginx } from '../../scripts/find-nginx.ts'
import { startRedis, type TestRedis } from '../../test-support/redis-server.ts'
import { startTestCli, type TestCli } from '../../test-support/server/test-cli.ts'
import { createTestClient, type TestResponse } from '../../test-support/server/test-server.ts'
import { type RunningNginx, startNginx } from './nginx-process.ts'

const REPLICAS = new URL('./platform-sandbox-replicas.conf', import.meta.url)
/** Parallel sessions of the load. */
const SESSIONS = 6
/** Rounds (one read, one write) a session does at most: the load is bounded. */
const MAX_ROUNDS = 3_000
/** Writes acknowledged across the load between two steps of the restart. */
const PROGRESS = 30

let redis: TestRedis
let nginx: RunningNginx | undefined
const replicas: { cli: TestCli; port: number }[] = []

/** A replica on one Redis, on `port` (0: any). */
async function startReplica(port = 0) {
  const cli = startTestCli(['--port', String(port), '--state', redis.url])
  return { cli, port: Number(new URL(await cli.url).port) }
}

beforeAll(async () => {
  const binary = ensureNginx()
  redis = await startRedis()
  for (let index = 0; index < 3; index++) replicas.push(await startReplica())
  nginx = await startNginx(
    binary,
    replicas.map(({ port }) => port),
    REPLICAS,
  )
}, 300_000)
afterAll(async () => {
  await nginx?.stop()
  for (const { cli } of replicas) await cli.stop()
  await redis?.stop()
})

interface Load {
  session: string
  base: number
  reads: number
  acked: number
  refused: number
}

describe('a rolling restart of replicas on one Redis behind nginx', () => {
  it('fails no read, refuses writes only with Retry-After, and loses or repeats none', async () => {
    const client = createTestClient(nginx!.url)
    const guest = await client.tokenFor('guest')
    const loads: Load[] = []
    for (let index = 0; index < SESSIONS; index++) {
      const session = `rolling-${index}-${process.pid}`
      const base = (await client.collection('checkoutSessions', session)).length
      loads.push({ session, base, reads: 0, acked: 0, refused: 0 })
    }
    const unexpected: TestResponse[] = []
    let stopped = false
    const workers = loads.map(async (load) => {
      for (let round = 0; round < MAX_ROUNDS && !stopped && !unexpected.length; round++) {
        const read = await client.request('/payprov/account-status', {
          as: 'host',
          session: load.session,
        })
        if (read.status === 200) load.reads++
        else unexpected.push(read)
        const write = await client.request('/checkout/create-session', {
          session: load.session,
          body: { bookingId: anchors.bookings.accepted },
          headers: { authorization: `Bearer ${guest}` },
        })
        if (write.status === 201) load.acked++
        else if ([502, 503].includes(write.status) && write.headers['retry-after']) load.refused++
        else unexpected.push(write)
      }
    })
    const acked = () => loads.reduce((sum, load) => sum + load.acked, 0)
    const finished = Promise.all(workers).then(() => {
      stopped = true
    })
    /** Waits until the load acknowledged PROGRESS writes more (or ended). */
    const progress = async () => {
      const from = acked()
      while (!stopped && !unexpected.length && acked() < from + PROGRESS) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }

    await progress()
    for (const [index, replica] of replicas.entries()) {
      const { code } = await replica.cli.stop()
      expect(code, `replica ${index} closed gracefully`).toBe(0)
      await progress()
      replicas[index] = await startReplica(replica.port)
      await progress()
    }
    stopped = true
    await finished

    expect(unexpected.map((answer) => `${answer.status} ${answer.text}`)).toEqual([])
    // Every replica was restarted under the load: it never ran out of rounds.
    expect(loads.every((load) => load.reads < MAX_ROUNDS)).toBe(true)
    for (const load of loads) {
      const now = (await client.collection('checkoutSessions', load.session)).length
      expect(now - load.base, `writes in session ${load.session}`).toBe(load.acked)
    }
    const total = (key: 'reads' | 'acked' | 'refused') =>
      loads.reduce((sum, load) => sum + load[key], 0)
    console.log(
      `rolling restart: ${total('reads')} reads (0 failed), ${total('acked')} writes acknowledged, ${total('refused')} refused with Retry-After`,
    )
  }, 240_000)
})
