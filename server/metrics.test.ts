/**
 * `GET /__sandbox/metrics`: the Prometheus text of what the server answered (by operation and
 * status, its latency), the sessions in memory, the fault answers, the MCP sessions and what a
 * store counts; behind the control token; and none with `metrics: false` (`--no-metrics`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterEach, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../cli/cli-options.ts'
import { connectHttp } from '../test-support/mcp/test-mcp.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { createMetrics } from './metrics.ts'

const TOKEN = 'metrics-token-1'
const control = { authorization: `Bearer ${TOKEN}` }

let servers: TestServer[] = []
let clients: Client[] = []
afterEach(async () => {
  for (const client of clients) await client.close()
  for (const server of servers) await server.close()
  servers = []
  clients = []
})

async function started(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer({ controlToken: TOKEN, ...options })
  servers.push(server)
  return server
}

/** The samples of a scrape: `name{labels}` to its value. */
async function scrape(server: TestServer): Promise<Map<string, number>> {
  const response = await server.request('/__sandbox/metrics', { headers: control })
  expect(response.status).toBe(200)
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  return new Map(
    response.text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const space = line.lastIndexOf(' ')
        return [line.slice(0, space), Number(line.slice(space + 1))] as const
      }),
  )
}

describe('GET /__sandbox/metrics', () => {
  it('is behind the control token, as the rest of the control API', async () => {
    const server = await started()
    const refused = await server.request('/__sandbox/metrics')
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED' })
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/)
  })

  it('counts requests by operation and status, and times them by operation', async () => {
    const server = await started()
    const before = await scrape(server)
    expect(before.get('sandbox_requests_total{operation="getAccountStatus",status="200"}')).toBe(
      undefined,
    )
    for (let i = 0; i < 3; i++) {
      expect((await server.request('/payprov/account-status', { as: 'host' })).status).toBe(200)
    }
    expect((await server.request('/payprov/account-status')).status).toBe(401)
    expect((await server.request('/no/such/route')).status).toBe(404)
    expect((await server.request('/__sandbox/clock', { headers: control })).status).toBe(200)

    const after = await scrape(server)
    expect(after.get('sandbox_requests_total{operation="getAccountStatus",status="200"}')).toBe(3)
    expect(after.get('sandbox_requests_total{operation="getAccountStatus",status="401"}')).toBe(1)
    expect(after.get('sandbox_requests_total{operation="none",status="404"}')).toBe(1)
    // The control API's calls are not the API's requests.
    expect([...after.keys()].filter((name) => name.includes('"control"'))).toEqual([])
    expect(after.get('sandbox_request_duration_seconds_count{operation="getAccountStatus"}')).toBe(
      4,
    )
    expect(
      after.get('sandbox_request_duration_seconds_bucket{le="+Inf",operation="getAccountStatus"}'),
    ).toBe(4)
  })

  it('shows the sessions in memory and the answers of fault rules and Prefer', async () => {
    const server = await started()
    for (const session of ['qa-1', 'qa-2']) {
      await server.request('/payprov/account-status', { as: 'host', session })
    }
    const added = await server.request('/__sandbox/faults', {
      session: 'qa-1',
      headers: control,
      body: { path: '/payprov/account-status', status: 503, times: 2 },
    })
    expect(added.status).toBe(201)
    for (let i = 0; i < 3; i++) {
      await server.request('/payprov/account-status', { as: 'host', session: 'qa-1' })
    }
    const preferred = await server.request('/payprov/account-status', {
      as: 'host',
      session: 'qa-2',
      headers: { prefer: 'code=429' },
    })
    expect(preferred.status).toBe(429)

    const samples = await scrape(server)
    const health = await server.request<{ usage: { sessions: number } }>('/__sandbox/health')
    expect(samples.get('sandbox_sessions_in_memory')).toBe(health.body.usage.sessions)
    expect(health.body.usage.sessions).toBeGreaterThanOrEqual(3)
    expect(samples.get('sandbox_faults_fired_total{source="rule"}')).toBe(2)
    expect(samples.get('sandbox_faults_fired_total{source="prefer"}')).toBe(1)
    expect(samples.get('sandbox_requests_total{operation="getAccountStatus",status="503"}')).toBe(2)
  })

  it('counts the open MCP sessions of /__sandbox/mcp', async () => {
    const server = await started()
    expect((await scrape(server)).get('sandbox_mcp_sessions')).toBe(0)
    clients.push(await connectHttp(`${server.url}/__sandbox/mcp`, control))
    clients.push(await connectHttp(`${server.url}/__sandbox/mcp`, control))
    expect((await scrape(server)).get('sandbox_mcp_sessions')).toBe(2)
  })

  it('shows what a store counts: round trips, failures and the sessions it holds', async () => {
    const metrics = createMetrics()
    const server = await started({ metrics })
    let held = 7
    expect((await scrape(server)).has('sandbox_store_sessions')).toBe(false)
    let down = false
    metrics.readStoreSessions(async () => {
      if (down) throw new Error('connect ECONNREFUSED')
      return held
    })
    metrics.roundTrip()
    metrics.roundTrip()
    metrics.roundTrip(true)
    const samples = await scrape(server)
    expect(samples.get('sandbox_store_round_trips_total')).toBe(3)
    expect(samples.get('sandbox_store_failures_total')).toBe(1)
    expect(samples.get('sandbox_store_sessions')).toBe(7)
    held = 9
    expect((await scrape(server)).get('sandbox_store_sessions')).toBe(9)
    // A store that cannot answer (Redis down) keeps its last value; the scrape still answers.
    down = true
    expect((await scrape(server)).get('sandbox_store_sessions')).toBe(9)
  })

  it('reads the sessions a state directory keeps', async () => {
    const { mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const server = await started({ stateDir: mkdtempSync(join(tmpdir(), 'sandbox-metrics-')) })
    expect((await scrape(server)).get('sandbox_store_sessions')).toBe(0)
    const decline = await server.request(
      '/notifications/ntf_host_unarchived/archive?dryRun=false',
      {
        as: 'host',
        session: 'kept',
        method: 'POST',
      },
    )
    expect(decline.status).toBeLessThan(300)
    expect((await scrape(server)).get('sandbox_store_sessions')).toBe(1)
  })

  it('answers 404 when the server keeps none (--no-metrics)', async () => {
    expect(parseCliArguments(['--no-metrics'], {}).metrics).toBe(false)
    expect(parseCliArguments([], {}).metrics).toBeUndefined()
    const server = await started({ metrics: false })
    const response = await server.request('/__sandbox/metrics', { headers: control })
    expect(response.status).toBe(404)
    expect(response.body).toMatchObject({
      code: 'NOT_FOUND',
      details: [expect.stringContaining('--no-metrics')],
    })
  })
})
