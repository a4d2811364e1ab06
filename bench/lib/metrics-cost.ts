/**
 * @module
 * What the Prometheus metrics cost the server: throughput of `GET /payprov/account-status` on
 * the CLI as it starts (metrics kept) against the same CLI with `--no-metrics`, both running,
 * in alternating rounds; and the requests the metrics counted, read back from
 * `GET /__sandbox/metrics`, so that a figure of metrics that count nothing cannot pass.
 */

import { createSandbox } from '../../mocks/sandbox.ts'
import { createSandboxClient, signIn } from '../../mocks/sandbox-client/sandbox-client.ts'
import { createMetrics } from '../../server/metrics.ts'
import { httpTargets } from './http-rounds.ts'
import { type LoadResult, measureLoad } from './load.ts'
import type { Pinning } from './pinning.ts'
import { startChildServer } from './servers.ts'
import { load, loadRounds, servers } from './settings.ts'
import { collectGarbage, median } from './stats.ts'

export interface MetricsCostFigures {
  with: LoadResult
  without: LoadResult
  rounds: number
  /** `sandbox_requests_total` of the measured operation and status after the last round. */
  counted: number
  /** The measured requests of the server with metrics, every round (its warm-ups come on top). */
  measured: number
  /** In process: median µs of one `sandbox.handle` of the same GET, observed and not. */
  inProcess: { onMicros: number; offMicros: number; requests: number }
}

/** Requests of a side before the other takes its turn. */
const RUN = 100

/**
 * The same GET on two sandboxes in one process, one observed by the metrics, taking turns every
 * `RUN` requests so that other work on the machine slows both alike: median µs of each.
 */
async function measureInProcess(requests = 20_000, batches = 5) {
  const observed = createSandbox()
  createMetrics().observe(observed, () => 0)
  const plain = createSandbox()
  const request = async (sandbox: typeof plain) => ({
    method: 'GET',
    url: '/payprov/account-status',
    headers: { authorization: `Bearer ${await signIn(sandbox, 'host')}` },
  })
  const sides = { on: await request(observed), off: await request(plain) }
  const times = { on: [] as number[], off: [] as number[] }
  for (let batch = -1; batch < batches; batch++) {
    collectGarbage()
    for (let index = 0; index < requests / batches; index++) {
      const side = (Math.floor(index / RUN) + batch) % 2 === 0 ? 'on' : 'off'
      const started = performance.now()
      const answer = await (side === 'on' ? observed : plain).handle(sides[side])
      const micros = (performance.now() - started) * 1000
      if (answer.status !== 200) throw new Error(`getAccountStatus: ${answer.status}`)
      if (batch >= 0) times[side].push(micros)
    }
  }
  return { onMicros: median(times.on), offMicros: median(times.off), requests }
}

async function countedRequests(url: string): Promise<number> {
  const text = await (await fetch(`${url}/__sandbox/metrics`)).text()
  const line = text
    .split('\n')
    .find((candidate) =>
      candidate.startsWith('sandbox_requests_total{operation="getAccountStatus",status="200"}'),
    )
  return Number(line?.split(' ').at(-1) ?? 0)
}

/** Best of the alternating rounds of each side (at least 3), each going first in turn. */
export async function measureMetricsCost(
  pinning: Pinning,
  log: (line: string) => void,
): Promise<MetricsCostFigures> {
  const { script, args } = servers.sandbox
  const on = await startChildServer(pinning, script, args)
  const off = await startChildServer(pinning, script, [...args, '--no-metrics'])
  const rounds = Math.max(loadRounds, 3)
  try {
    const token = await createSandboxClient({ baseUrl: on.url }).accessToken('host')
    const target = httpTargets(token)['GET /payprov/account-status']!
    let best: { with?: LoadResult; without?: LoadResult } = {}
    let measured = 0
    for (let round = 0; round < rounds; round++) {
      const sides = [['with', on] as const, ['without', off] as const]
      // Each side goes first every other round: neither always meets a warmer machine.
      for (const [side, server] of round % 2 === 0 ? sides : sides.reverse()) {
        const result = await measureLoad(server.url, target, load)
        if (result.failures > 0) throw new Error(`Failed to benchmark metrics ${side}: failures`)
        if (side === 'with') measured += result.requests
        log(
          `  round ${round + 1} metrics ${side.padEnd(7)}: ${result.requestsPerSecond.toFixed(0)} req/s`,
        )
        const kept = best[side]
        if (!kept || result.requestsPerSecond > kept.requestsPerSecond) {
          best = { ...best, [side]: result }
        }
      }
    }
    const counted = await countedRequests(on.url)
    if (counted < measured) {
      throw new Error(
        `The metrics counted ${counted} requests of the ${measured} measured at least`,
      )
    }
    const inProcess = await measureInProcess()
    return { with: best.with!, without: best.without!, rounds, counted, measured, inProcess }
  } finally {
    await Promise.all([on.stop(), off.stop()])
  }
}
