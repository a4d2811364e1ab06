import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { ScenarioError } from '../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../mocks/scenarios/load-files.ts'
import type { TestServer } from '../test-support/server/test-server.ts'
import { everything, useStateDirServers } from '../test-support/server/test-state-dir.ts'

const { temporaryDirectory, start } = useStateDirServers('sandbox-snapshots-')

const sessionLog = (directory: string, session: string) =>
  join(directory, 'sessions', `${Buffer.from(session).toString('base64url')}.jsonl`)

async function resetTo(server: TestServer, session: string, body: object) {
  const response = await server.request('/__sandbox/reset', { body, session })
  expect(response.status, response.text).toBe(200)
  return response.body
}

/** A state directory with snapshot `declined` saved from session `qa`: bkg_pending declined. */
async function withSavedSnapshot() {
  const directory = temporaryDirectory()
  const server = await start(directory)
  const decline = `/bookings/${anchors.bookings.pending}/decline`
  expect((await server.request(decline, { as: 'host', body: {}, session: 'qa' })).status).toBe(201)
  const saved = await server.request('/__sandbox/snapshots', {
    body: { name: 'declined' },
    session: 'qa',
  })
  expect(saved.status).toBe(201)
  await resetTo(server, 'probe', { snapshot: 'declined' })
  const records = await everything(server, 'probe')
  return { directory, server, saved: saved.body, records }
}

describe('saved snapshots in a state directory', () => {
  it('come back after a restart: listed, and a reset gives the same records', async () => {
    const { directory, server, saved, records } = await withSavedSnapshot()
    expect(readdirSync(join(directory, 'snapshots'))).toEqual(['declined.json'])
    await server.close()

    const second = await start(directory)
    expect(second.restored).toMatchObject({ snapshots: 1, warnings: [] })
    const list = await second.request('/__sandbox/snapshots')
    expect(list.body).toEqual([saved])
    await resetTo(second, 'other', { snapshot: 'declined' })
    expect(await everything(second, 'other')).toEqual(records)
    const bookings = await second.collection<{ id: string; status: string }>('bookings', 'other')
    expect(bookings.find((booking) => booking.id === anchors.bookings.pending)?.status).toBe(
      'declined',
    )
    // New ids continue after the ones the snapshot holds.
    const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
    expect((await second.request(follow, { as: 'guest', body: {}, session: 'other' })).status).toBe(
      201,
    )
    const notifications = await second.collection<{ id: string }>('notifications', 'other')
    expect(new Set(notifications.map((n) => n.id)).size).toBe(notifications.length)
  })

  it('exports after a restart a file that extends the origin, loaded back with the snapshot still saved', async () => {
    const { directory, server, records } = await withSavedSnapshot()
    await server.close()

    const second = await start(directory)
    const exported = await second.request<{ name: string; extends: string }>(
      '/__sandbox/snapshots/declined',
    )
    expect(exported.status).toBe(200)
    expect(exported.body).toMatchObject({ name: 'declined', extends: 'default' })
    const file = join(temporaryDirectory(), 'declined.json')
    writeFileSync(file, exported.text)
    await second.close()

    // The scenario made from the export and the snapshot of the same name live side by side,
    // through any number of restarts and exports.
    for (let round = 0; round < 2; round++) {
      const next = await start(directory, { scenarios: await readScenarioFiles([file]) })
      await resetTo(next, 'from-file', { scenario: 'declined' })
      expect(await everything(next, 'from-file')).toEqual(records)
      await resetTo(next, 'from-snapshot', { snapshot: 'declined' })
      expect(await everything(next, 'from-snapshot')).toEqual(records)
      // Saving again under that name is refused while a scenario of the name is loaded: the
      // snapshot kept is the restored one, still on top of `default`.
      const refused = await next.request('/__sandbox/snapshots', {
        body: { name: 'declined', replace: true },
        session: 'from-snapshot',
      })
      expect(refused.status).toBe(409)
      const again = await next.request<{ extends: string }>('/__sandbox/snapshots/declined')
      expect(again.body.extends).toBe('default')
      writeFileSync(file, again.text)
      await next.close()
    }
  })

  it('keeps the file of a name already saved when another save is refused, and rewrites it on replace: true', async () => {
    const { directory, server, saved, records } = await withSavedSnapshot()
    const file = join(directory, 'snapshots', 'declined.json')
    const written = readFileSync(file, 'utf8')
    const taken = await server.request('/__sandbox/snapshots', {
      body: { name: 'declined' },
      session: 'other-run',
    })
    expect(taken.status).toBe(409)
    expect(readFileSync(file, 'utf8')).toBe(written)
    await server.close()

    const second = await start(directory)
    expect((await second.request('/__sandbox/snapshots')).body).toEqual([saved])
    await resetTo(second, 'probe', { snapshot: 'declined' })
    expect(await everything(second, 'probe')).toEqual(records)

    const replaced = await second.request('/__sandbox/snapshots', {
      body: { name: 'declined', replace: true },
      session: 'other-run',
    })
    expect(replaced).toMatchObject({ status: 201, body: { session: 'other-run' } })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ session: 'other-run' })
    const fresh = await everything(second, 'other-run')
    await second.close()

    const third = await start(directory)
    await resetTo(third, 'probe', { snapshot: 'declined' })
    expect(await everything(third, 'probe')).toEqual(fresh)
  })

  it('forgets a deleted snapshot across a restart', async () => {
    const { directory, server } = await withSavedSnapshot()
    expect(
      (await server.request('/__sandbox/snapshots/declined', { method: 'DELETE' })).status,
    ).toBe(204)
    expect(existsSync(join(directory, 'snapshots', 'declined.json'))).toBe(false)
    await server.close()

    const second = await start(directory)
    expect((await second.request('/__sandbox/snapshots')).body).toEqual([])
    const reset = await second.request('/__sandbox/reset', { body: { snapshot: 'declined' } })
    expect(reset.status).toBe(404)
  })

  it('keeps an uploaded scenario and a snapshot of it across the restart', async () => {
    const directory = temporaryDirectory()
    const first = await start(directory)
    const file = {
      name: 'no-bookings',
      extends: 'default',
      remove: { bookings: [anchors.bookings.pending] },
    }
    const upload = await first.request('/__sandbox/scenarios', { body: file })
    expect(upload.status, upload.text).toBe(201)
    expect(
      JSON.parse(readFileSync(join(directory, 'scenarios', 'no-bookings.json'), 'utf8')),
    ).toEqual(file)
    await resetTo(first, 'qa', { scenario: 'no-bookings' })
    await first.request('/__sandbox/snapshots', { body: { name: 'uploaded' }, session: 'qa' })
    const records = await everything(first, 'qa')
    await first.close()

    const second = await start(directory)
    const scenarios = await second.request<{ name: string }[]>('/__sandbox/scenarios')
    expect(scenarios.body.map(({ name }) => name)).toContain('no-bookings')
    expect((await second.request<{ scenario: string }[]>('/__sandbox/snapshots')).body).toEqual([
      expect.objectContaining({ name: 'uploaded', scenario: 'no-bookings' }),
    ])
    expect(await everything(second, 'qa')).toEqual(records)
    await resetTo(second, 'probe', { snapshot: 'uploaded' })
    expect(await everything(second, 'probe')).toEqual(records)
    await resetTo(second, 'other', { scenario: 'no-bookings' })
    expect(await everything(second, 'other')).toEqual(records)
    expect(second.restored?.warnings).toEqual([])
  })

  it('brings a session reset to a scenario added in code back on the starting one, warned', async () => {
    const directory = temporaryDirectory()
    const first = await start(directory)
    first.sandbox.addScenarios([{ name: 'in-code', extends: 'empty' }])
    await resetTo(first, 'qa', { scenario: 'in-code' })
    await first.close()
    expect(readdirSync(join(directory, 'scenarios'))).toEqual([])

    const second = await start(directory)
    const sessions = await second.request<{ id: string; scenario: string }[]>(
      '/__sandbox/sessions',
      { session: 'qa' },
    )
    expect(sessions.body).toContainEqual({
      id: 'qa',
      scenario: 'default',
      seed: expect.any(Number),
    })
    expect(second.restored?.warnings).toEqual([
      'session "qa" was reset to scenario "in-code", not loaded now: restored on top of the starting scenario instead',
    ])
  })

  it('refuses to start on a corrupt snapshot file, naming it, and keeps every file', async () => {
    const { directory, server } = await withSavedSnapshot()
    await server.close()
    const broken = join(directory, 'snapshots', 'broken.json')
    writeFileSync(broken, '{"version": 1, "name": "bro')
    const good = readFileSync(join(directory, 'snapshots', 'declined.json'), 'utf8')
    const renamed = JSON.parse(good) as { name: string; change?: object }
    renamed.name = 'invalid'
    renamed.change = { bookings: [{ id: anchors.bookings.pending, status: 'cancelled' }] }
    const invalid = join(directory, 'snapshots', 'invalid.json')
    writeFileSync(invalid, JSON.stringify(renamed))

    const failure = await start(directory).then(
      () => {
        throw new Error('started')
      },
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ScenarioError)
    const { problems } = failure as ScenarioError
    expect(problems[0]).toMatch(new RegExp(`^${broken}: not valid JSON \\(`))
    expect(problems.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${invalid}: bookings\\[${anchors.bookings.pending}\\]\\.status: .*"cancelled"`,
        ),
      ),
    ])
    expect(readFileSync(join(directory, 'snapshots', 'declined.json'), 'utf8')).toBe(good)
    expect(readdirSync(join(directory, 'snapshots')).sort()).toEqual([
      'broken.json',
      'declined.json',
      'invalid.json',
    ])
  })
})

describe('a session reset to a saved snapshot, in a state directory', () => {
  it('comes back after a restart as the snapshot plus its later writes', async () => {
    const { directory, server, records } = await withSavedSnapshot()
    await resetTo(server, 'A', { snapshot: 'declined' })
    const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
    expect((await server.request(follow, { as: 'guest', body: {}, session: 'A' })).status).toBe(201)
    const before = await everything(server, 'A')
    expect(before).not.toEqual(records)
    await server.close()

    // The reset to the snapshot and the write after it.
    expect(readFileSync(sessionLog(directory, 'A'), 'utf8').split('\n').filter(Boolean)).toEqual([
      expect.stringContaining('"snapshot":"declined"'),
      expect.stringContaining('send-claim-email'),
    ])
    const second = await start(directory)
    expect(await everything(second, 'A')).toEqual(before)
    expect(second.restored).toMatchObject({ warnings: [] })
    const bookings = await second.collection<{ id: string; status: string }>('bookings', 'A')
    expect(bookings.find((booking) => booking.id === anchors.bookings.pending)?.status).toBe(
      'declined',
    )
  })

  it('comes back on top of the origin, with a warning, when the snapshot was deleted since', async () => {
    const { directory, server } = await withSavedSnapshot()
    await resetTo(server, 'A', { snapshot: 'declined' })
    await server.request('/__sandbox/snapshots/declined', { method: 'DELETE' })
    await server.close()

    const second = await start(directory)
    // Both sessions reset to it, "probe" and "A": each warns when it is loaded.
    await everything(second, 'probe')
    const bookings = await second.collection<{ id: string; status: string }>('bookings', 'A')
    expect(second.restored?.warnings).toHaveLength(2)
    expect(second.restored?.warnings).toContainEqual(
      expect.stringContaining('session "A" was reset to snapshot "declined", deleted since'),
    )
    expect(bookings.find((booking) => booking.id === anchors.bookings.pending)?.status).toBe(
      'pending',
    )
  })
})
