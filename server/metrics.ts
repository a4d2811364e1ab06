/**
 * @module
 * The server's Prometheus metrics (`GET /__sandbox/metrics`, with prom-client): requests by
 * operation and status and their latency, read from the journal's `request:end` (an observer,
 * nothing patched); sessions in memory and MCP sessions, read at each scrape; and what a state
 * store counts itself (round trips, failures, the sessions it holds). Server only: neither the
 * browser nor the in-process (msw) runtimes load it.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Sandbox } from '../mocks/sandbox.ts'

/** What a state store feeds: the server gives the store it opens its `metrics`. */
export interface StoreMetrics {
  /** Counts one round trip to the store; `failed` when it failed (refused, timed out, down). */
  roundTrip(failed?: boolean): void
  /** How `sandbox_store_sessions` is read at each scrape (no such gauge until one is given). */
  readStoreSessions(read: () => number | Promise<number>): void
}

export interface ServerMetrics extends StoreMetrics {
  /** The exposition format's `Content-Type`. */
  readonly contentType: string
  /** Counts the requests `sandbox` answers; `mcpSessions` is read at each scrape. */
  observe(sandbox: Sandbox, mcpSessions: () => number): void
  /** Every metric in the Prometheus text format. */
  text(): Promise<string>
}

/** Seconds: a sandbox answers in about a millisecond; fault rules delay up to seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * The metrics of one server. Requests are the API's (not `/__sandbox`), `operation` their
 * operationId or `none` for an unknown route: bounded values, never a path.
 *
 * @example
 * const metrics = createMetrics()
 * const { url } = await startServer({ metrics })
 */
export function createMetrics(): ServerMetrics {
  const registry = new Registry()
  const requests = new Counter({
    name: 'sandbox_requests_total',
    help: 'Requests answered, by operation and status',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'sandbox_request_duration_seconds',
    help: 'Time from a request read to its answer, by operation',
    labelNames: ['operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const faults = new Counter({
    name: 'sandbox_faults_fired_total',
    help: 'Fault rules fired here (`rule`: an answer or a delay), and Prefer headers applied (`prefer`)',
    labelNames: ['source'] as const,
    registers: [registry],
  })
  const roundTrips = new Counter({
    name: 'sandbox_store_round_trips_total',
    help: 'Round trips to the state store',
    registers: [registry],
  })
  const failures = new Counter({
    name: 'sandbox_store_failures_total',
    help: 'Round trips to the state store that failed',
    registers: [registry],
  })
  return {
    contentType: registry.contentType,
    roundTrip(failed = false) {
      roundTrips.inc()
      if (failed) failures.inc()
    },
    readStoreSessions(read) {
      registry.removeSingleMetric('sandbox_store_sessions')
      let last = 0
      new Gauge({
        name: 'sandbox_store_sessions',
        help: 'Sessions the state store holds',
        registers: [registry],
        async collect() {
          try {
            last = await read()
          } catch {
            // A store that cannot answer now keeps its last value: the scrape still answers.
          }
          this.set(last)
        },
      })
    },
    observe(sandbox, mcpSessions) {
      new Gauge({
        name: 'sandbox_sessions_in_memory',
        help: 'Sessions held in memory by this instance',
        registers: [registry],
        collect() {
          this.set(sandbox.sessionCount)
        },
      })
      new Gauge({
        name: 'sandbox_mcp_sessions',
        help: 'Open MCP sessions of /__sandbox/mcp',
        registers: [registry],
        collect() {
          this.set(mcpSessions())
        },
      })
      sandbox.events.on('request:end', ({ data: { entry } }) => {
        // The control API's calls are journaled only when they start a session: not counted.
        if (entry.path.startsWith('/__sandbox')) return
        const operation = entry.operationId ?? 'none'
        requests.inc({ operation, status: entry.status })
        latency.observe({ operation }, entry.durationMs / 1000)
        if (entry.fault !== undefined)
          faults.inc({ source: entry.fault === 'prefer' ? 'prefer' : 'rule' })
      })
    },
    text: () => registry.metrics(),
  }
}
