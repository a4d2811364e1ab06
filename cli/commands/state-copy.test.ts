import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personas } from '../../fixtures/personas.ts'
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'
import { startServer } from '../../server/start-server.ts'
import { startRedis, type TestRedis } from '../../test-support/redis-server.ts'
import { runTestCommand as run } from '../../test-support/server/test-cli.ts'
import { useStateDirServers } from '../../test-support/server/test-state-dir.ts'

const { temporaryDirectory, start } = useStateDirServers('sandbox-state-copy-')
let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis.stop())

const SESSION = 'qa-copy'

/** What a sandbox on the store shows: the session's counts, the snapshots and scenarios. */
async function seen(url: string) {
  const client = createSandboxClient<any>({ baseUrl: url, personas })
  const counts = (await client.request('/__sandbox/collections', { session: SESSION })).body
  const snapshots = (await client.request<{ name: string }[]>('/__sandbox/snapshots')).body
  const scenarios = (await client.request<{ name: string }[]>('/__sandbox/scenarios')).body
  return {
    counts,
    snapshots: snapshots.map(({ name }) => name),
    scenarios: scenarios.map(({ name }) => name),
  }
}

describe('platform-sandbox state copy and check on Redis', () => {
  it('copies a state directory into Redis and back, each read by a sandbox as it was', async () => {
    const from = temporaryDirectory()
    const server = await start(from)
    const client = createSandboxClient<any>({ baseUrl: server.url, personas })
    const token = await client.accessToken('guest', SESSION)
    for (let n = 0; n < 3; n++) {
      const answer = await client.request('/checkout/create-session', {
        method: 'POST',
        authorization: `Bearer ${token}`,
        body: { bookingId: anchors.bookings.accepted },
        session: SESSION,
      })
      expect(answer.status).toBe(201)
    }
    const upload = { name: 'team-copy', description: 'Uploaded', extends: 'empty' }
    expect(
      (await client.request('/__sandbox/scenarios', { method: 'POST', body: upload })).status,
    ).toBe(201)
    const save = { method: 'POST', body: { name: 'saved-copy' }, session: SESSION }
    expect((await client.request('/__sandbox/snapshots', save)).status).toBe(201)
    const before = await seen(server.url)
    expect(before.snapshots).toEqual(['saved-copy'])

    const into = await run(['state', 'copy', from, redis.url])
    expect(into.code).toBe(0)
    expect(into.stdout).toContain(
      'Copied 1 session logs, 1 saved snapshots and 1 uploaded scenarios',
    )
    const onRedis = await startServer({ port: 0, quiet: true, state: redis.url })
    try {
      expect(await seen(onRedis.url)).toEqual(before)
    } finally {
      await onRedis.close()
    }

    const back = temporaryDirectory()
    expect((await run(['state', 'copy', redis.url, back])).code).toBe(0)
    expect(await seen((await start(back)).url)).toEqual(before)

    const check = await run(['state', 'check', redis.url])
    expect(check.code).toBe(0)
    expect(check.stdout).toBe(`1 session logs in ${redis.url}: 0 problems\n`)
  }, 60_000)

  it('refuses a source directory that does not exist, exit code 2', async () => {
    const missing = `${temporaryDirectory()}/missing`
    const { code, stderr } = await run(['state', 'copy', missing, redis.url])
    expect(code).toBe(2)
    expect(stderr).toBe(`platform-sandbox: ${missing}: no such directory\n`)
  }, 60_000)
})
