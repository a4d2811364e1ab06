import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { collectionNames } from '../mocks/model/schemas.ts'
import { readScenarioFiles } from '../mocks/scenarios/load-files.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

const servers: TestServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer({ quiet: true, ...options })
  servers.push(server)
  return server
}

async function everyCollection(server: TestServer, session: string) {
  const state: Record<string, unknown[]> = {}
  for (const name of collectionNames) state[name] = await server.collection(name, session)
  return state
}

describe('saved snapshots', () => {
  it('saves a session, resets any session to it, and leaves the saved state alone', async () => {
    const server = await start()
    const decline = await server.request('/bookings/bkg_pending/decline?dryRun=false', {
      method: 'POST',
      as: 'host',
      session: 'qa-1',
      body: { reason: 'Fully booked' },
    })
    expect(decline.status).toBe(201)
    const saved = await server.request('/__sandbox/snapshots', {
      method: 'POST',
      session: 'qa-1',
      body: { name: 'declined.v1' },
    })
    expect(saved.status).toBe(201)
    expect(saved.body).toMatchObject({ name: 'declined.v1', scenario: 'default', session: 'qa-1' })

    // Later writes in qa-1 do not reach the snapshot.
    await server.request('/bookings/bkg_pending_2/decline', {
      method: 'POST',
      as: 'host',
      session: 'qa-1',
      body: {},
    })
    const reset = await server.request('/__sandbox/reset', {
      method: 'POST',
      session: 'qa-2',
      body: { snapshot: 'declined.v1' },
    })
    expect(reset).toMatchObject({
      status: 200,
      body: { session: 'qa-2', scenario: 'default', snapshot: 'declined.v1' },
    })
    const bookings = await server.collection<{ id: string; status: string }>('bookings', 'qa-2')
    expect(bookings.find((b) => b.id === 'bkg_pending')?.status).toBe('declined')
    expect(bookings.find((b) => b.id === 'bkg_pending_2')?.status).toBe('pending')
    const notifications = await server.collection<{ userId: string; kind: string }>(
      'notifications',
      'qa-2',
    )
    expect(notifications.at(-1)).toMatchObject({ userId: 'usr_guest', kind: 'booking.declined' })

    // A write after the reset gets a fresh id, not one the snapshot already holds.
    await server.request('/bookings/bkg_pending_2/decline', {
      method: 'POST',
      as: 'host',
      session: 'qa-2',
      body: {},
    })
    const after = await server.collection<{ id: string }>('notifications', 'qa-2')
    expect(new Set(after.map((n) => n.id)).size).toBe(after.length)

    // A plain reset goes back to the starting scenario, as everywhere; naming the snapshot
    // goes back to the snapshot.
    expect(
      (await server.request('/__sandbox/reset', { method: 'POST', session: 'qa-2', body: {} }))
        .body,
    ).toEqual({ session: 'qa-2', scenario: 'default', seed: expect.any(Number) })
    expect(
      (
        await server.request('/__sandbox/reset', {
          method: 'POST',
          session: 'qa-2',
          body: { snapshot: 'declined.v1' },
        })
      ).body,
    ).toMatchObject({ snapshot: 'declined.v1' })
    const again = await server.collection<{ id: string; status: string }>('bookings', 'qa-2')
    expect(again.find((b) => b.id === 'bkg_pending_2')?.status).toBe('pending')

    const list = await server.request<{ name: string }[]>('/__sandbox/snapshots')
    expect(list.body.map((s) => s.name)).toEqual(['declined.v1'])
    expect(
      (await server.request('/__sandbox/snapshots/declined.v1', { method: 'DELETE' })).status,
    ).toBe(204)
    expect(
      (await server.request('/__sandbox/snapshots/declined.v1', { method: 'DELETE' })).status,
    ).toBe(404)
    const gone = await server.request('/__sandbox/reset', {
      method: 'POST',
      body: { snapshot: 'declined.v1' },
    })
    expect(gone.status).toBe(404)
  })

  it('exports a snapshot as a scenario file that --scenario-file loads back (round trip)', async () => {
    const server = await start()
    await server.request('/bookings/bkg_pending/decline', {
      method: 'POST',
      as: 'host',
      session: 'qa',
      body: { reason: 'Closed' },
    })
    await server.request('/users/usr_guest/follow', {
      method: 'POST',
      as: 'host',
      session: 'qa',
      body: {},
    })
    await server.request('/notifications/ntf_host_unarchived/archive', {
      method: 'POST',
      as: 'host',
      session: 'qa',
      body: {},
    })
    await server.request('/__sandbox/snapshots', {
      method: 'POST',
      session: 'qa',
      body: { name: 'after-decline' },
    })
    const exported = await server.request<{ extends: string; add: object; change: object }>(
      '/__sandbox/snapshots/after-decline',
    )
    expect(exported.status).toBe(200)
    expect(exported.body).toMatchObject({
      name: 'after-decline',
      extends: 'default',
      seed: 20260601,
    })
    expect(exported.body.change).toHaveProperty('bookings', [
      { id: 'bkg_pending', status: 'declined', declineReason: 'Closed' },
    ])

    const folder = await mkdtemp(path.join(tmpdir(), 'snapshot-export-'))
    const file = path.join(folder, 'after-decline.json')
    await writeFile(file, JSON.stringify(exported.body, null, 2))
    const reloaded = await start({
      scenario: 'after-decline',
      scenarios: await readScenarioFiles([file]),
    })
    expect(await everyCollection(reloaded, 'default')).toEqual(await everyCollection(server, 'qa'))
  })

  it('refuses a name already saved, from another session too, with 409; replace: true replaces it', async () => {
    const server = await start()
    await server.request('/bookings/bkg_pending/decline', { as: 'host', session: 'qa-1', body: {} })
    const first = await server.request('/__sandbox/snapshots', {
      session: 'qa-1',
      body: { name: 'shared' },
    })
    expect(first.status).toBe(201)
    const firstExport = (await server.request('/__sandbox/snapshots/shared')).body

    // Another QA run, in its own session, saves under the same name.
    const taken = await server.request('/__sandbox/snapshots', {
      session: 'qa-2',
      body: { name: 'shared' },
    })
    expect(taken).toMatchObject({
      status: 409,
      body: {
        code: 'CONFLICT',
        message: expect.stringMatching(
          /^Snapshot name "shared" is taken \(saved from session "qa-1" at .+\): save under another name, or with "replace": true to replace it$/,
        ),
      },
    })
    expect((await server.request('/__sandbox/snapshots')).body).toEqual([first.body])
    expect((await server.request('/__sandbox/snapshots/shared')).body).toEqual(firstExport)
    await server.request('/__sandbox/reset', { session: 'qa-3', body: { snapshot: 'shared' } })
    const bookings = await server.collection<{ id: string; status: string }>('bookings', 'qa-3')
    expect(bookings.find((b) => b.id === 'bkg_pending')?.status).toBe('declined')

    const replaced = await server.request('/__sandbox/snapshots', {
      session: 'qa-2',
      body: { name: 'shared', replace: true },
    })
    expect(replaced).toMatchObject({ status: 201, body: { name: 'shared', session: 'qa-2' } })
    expect((await server.request('/__sandbox/snapshots')).body).toEqual([replaced.body])
    await server.request('/__sandbox/reset', { session: 'qa-3', body: { snapshot: 'shared' } })
    const now = await server.collection<{ id: string; status: string }>('bookings', 'qa-3')
    expect(now.find((b) => b.id === 'bkg_pending')?.status).toBe('pending')

    // replace: true saves a new name as well; replace must be a boolean.
    const fresh = await server.request('/__sandbox/snapshots', {
      body: { name: 'fresh', replace: true },
    })
    expect(fresh.status).toBe(201)
    const bad = await server.request('/__sandbox/snapshots', {
      body: { name: 'shared', replace: 'yes' },
    })
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
  })

  it('refuses bad names with 400 and unknown ones with 404', async () => {
    const server = await start()
    for (const name of ['', 'has space', 'x'.repeat(65), 'slash/name']) {
      const answer = await server.request('/__sandbox/snapshots', {
        method: 'POST',
        body: { name },
      })
      expect(answer.status, name).toBe(400)
      expect(answer.body).toMatchObject({
        code: 'BAD_REQUEST',
        details: [expect.stringContaining('name must be 1 to 64 letters')],
      })
    }
    expect(
      (await server.request('/__sandbox/snapshots', { method: 'POST', body: {} })).status,
    ).toBe(400)
    expect((await server.request('/__sandbox/snapshots/nope')).status).toBe(404)
    expect((await server.request('/__sandbox/snapshots/bad%20name')).status).toBe(400)
    const both = await server.request('/__sandbox/reset', {
      method: 'POST',
      body: { snapshot: 'x', scenario: 'default' },
    })
    expect(both.status).toBe(400)
  })
})

describe('POST /__sandbox/scenarios', () => {
  it('adds a scenario file, lists it, and answers 400 with every problem of a bad one', async () => {
    const server = await start()
    const added = await server.request('/__sandbox/scenarios', {
      method: 'POST',
      body: { name: 'no-venues', description: 'Nothing listed', extends: 'empty' },
    })
    expect(added).toMatchObject({
      status: 201,
      body: { name: 'no-venues', description: 'Nothing listed' },
    })
    const listed = await server.request<{ name: string }[]>('/__sandbox/scenarios')
    expect(listed.body.map((s) => s.name)).toContain('no-venues')
    expect(
      (
        await server.request('/__sandbox/reset', {
          method: 'POST',
          session: 's',
          body: { scenario: 'no-venues' },
        })
      ).status,
    ).toBe(200)

    const bad = await server.request('/__sandbox/scenarios', {
      method: 'POST',
      body: {
        name: 'bad',
        extends: 'default',
        change: { bookings: [{ id: 'bkg_pending', status: 'cancelled', amount: 'lots' }] },
      },
    })
    expect(bad).toMatchObject({
      status: 400,
      body: {
        code: 'BAD_REQUEST',
        message: 'Invalid scenario',
        details: [
          'scenario "bad": bookings[bkg_pending].status: expected one of pending, accepted, declined, paid, refunded, got "cancelled"',
          'scenario "bad": bookings[bkg_pending].amount: expected number, got "lots"',
        ],
      },
    })
    const after = await server.request<{ name: string }[]>('/__sandbox/scenarios')
    expect(after.body.map((s) => s.name)).not.toContain('bad')
  })
})
