/**
 * Errors behind the documented nginx configuration: the sandbox's own answers pass through
 * untouched, nginx's own become the API's 503 with `Retry-After`, and neither takes an
 * instance out of the hash (`max_fails=0`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { SESSION_CREATED_HEADER } from '../../mocks/core/index.ts'
import { ensureNginx } from '../../scripts/find-nginx.ts'
import {
  createTestClient,
  startTestServer,
  type TestClient,
  type TestServer,
} from '../../test-support/server/test-server.ts'
import { type RunningNginx, startNginx, UPSTREAM_HEADER } from './nginx-process.ts'

let instances: TestServer[] = []
let nginx: RunningNginx
let client: TestClient

beforeAll(async () => {
  // Installs Debian's nginx when missing and running as root; otherwise fails saying how.
  const binary = ensureNginx()
  instances = await Promise.all([startTestServer(), startTestServer()])
  nginx = await startNginx(
    binary,
    instances.map((instance) => instance.port),
  )
  client = createTestClient(nginx.url)
}, 300_000)
afterAll(async () => {
  await nginx?.stop()
  for (const instance of instances) await instance.close()
})

const decline = (session: string) =>
  client.request(`/bookings/${anchors.bookings.pending}/decline`, {
    session,
    as: 'host',
    body: {},
  })
const addFault = async (session: string, rule: Record<string, unknown>) => {
  const added = await client.request('/__sandbox/faults', {
    session,
    body: { method: 'POST', path: '/bookings/:id/decline', ...rule },
  })
  expect(added.status).toBe(201)
  return String(added.headers[UPSTREAM_HEADER])
}

describe('errors behind nginx', () => {
  it("passes the sandbox's own 503 through untouched", async () => {
    await addFault('own-503', { status: 503, message: 'Down for the test', retryAfterSeconds: 7 })
    const answer = await decline('own-503')
    expect([answer.status, answer.headers['retry-after']]).toEqual([503, '7'])
    expect(answer.body).toEqual({ message: 'Down for the test', code: 'SERVICE_UNAVAILABLE' })
  })

  it("answers a reset connection with the API's 503, and keeps the instance's sessions on it", async () => {
    const instance = await addFault('reset', { networkError: true })
    // Sessions of the same instance, placed before the reset.
    const neighbours: string[] = []
    for (let index = 0; neighbours.length < 4 && index < 64; index++) {
      const first = await client.request('/__sandbox/collections', { session: `near-${index}` })
      if (first.headers[UPSTREAM_HEADER] === instance) neighbours.push(`near-${index}`)
    }
    expect(neighbours).toHaveLength(4)

    const reset = await decline('reset')
    expect([reset.status, reset.headers['retry-after']]).toEqual([503, '1'])
    expect(reset.headers['content-type']).toBe('application/json')
    expect(reset.body).toEqual({
      message: expect.stringContaining('not answering'),
      code: 'SERVICE_UNAVAILABLE',
    })
    // With nginx's default `max_fails=1`, the instance would be out for 10 s and these
    // sessions would start over on the other one.
    for (const session of neighbours) {
      const declined = await decline(session)
      expect([declined.status, declined.headers[UPSTREAM_HEADER]], session).toEqual([201, instance])
      expect(declined.headers[SESSION_CREATED_HEADER], session).toBeUndefined()
    }
  })
})
