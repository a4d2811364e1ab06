/**
 * @module
 * Throughput and latency with autocannon: a short warm-up (so every server is
 * measured after its JIT has settled), then a fixed-duration run.
 */
import autocannon from 'autocannon'

export interface LoadTarget {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** The status every response must have. */
  status: number
}

export interface LoadResult {
  /** Mean requests per second over the run. */
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  requests: number
  /** Responses with another status than the target's, plus connection errors. */
  failures: number
}

export interface LoadSettings {
  connections: number
  durationSeconds: number
  warmupSeconds: number
}

function run(url: string, target: LoadTarget, connections: number, duration: number) {
  return autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    connections,
    duration,
    headers: target.headers ?? {},
    ...(target.body === undefined ? {} : { body: target.body }),
  })
}

export async function measureLoad(
  url: string,
  target: LoadTarget,
  settings: LoadSettings,
): Promise<LoadResult> {
  await run(url, target, settings.connections, settings.warmupSeconds)
  const result = await run(url, target, settings.connections, settings.durationSeconds)
  const expected = target.status >= 200 && target.status < 300 ? result['2xx'] : result.non2xx
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.requests.total - expected + result.errors,
  }
}
