import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { everything, useStateDirServers } from '../test-support/server/test-state-dir.ts'

const { temporaryDirectory: stateDir, start } = useStateDirServers('sandbox-state-')

const decline = `/bookings/${anchors.bookings.pending}/decline`

/** Every line of every session log of `directory`. */
function logLines(directory: string): string[] {
  const sessions = join(directory, 'sessions')
  return readdirSync(sessions)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(sessions, name), 'utf8').split('\n').filter(Boolean))
}

describe('a server with a state directory', () => {
  it('comes back after a restart with every session as it was', async () => {
    const directory = stateDir()
    const first = await start(directory)
    expect(first.restored).toEqual({ sessions: 0, snapshots: 0, warnings: [] })
    expect((await first.request(decline, { as: 'host', body: {}, session: 'qa-1' })).status).toBe(
      201,
    )
    const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
    expect((await first.request(follow, { as: 'guest', body: {}, session: 'qa-2' })).status).toBe(
      201,
    )
    expect((await first.request(follow, { as: 'guest', body: {} })).status).toBe(201)
    // Neither a dry run nor a refusal is a write.
    await first.request(`${decline}?dryRun=true`, { as: 'host', body: {}, session: 'qa-2' })
    await first.request(decline, { as: 'guest', body: {}, session: 'qa-2' })
    const before = {
      'qa-1': await everything(first, 'qa-1'),
      'qa-2': await everything(first, 'qa-2'),
      default: await everything(first, 'default'),
    }
    await first.close()

    // Three writes logged, one line each: neither the dry run nor the refusal is there.
    expect(logLines(directory)).toHaveLength(3)
    const second = await start(directory)
    expect(second.restored).toEqual({ sessions: 3, snapshots: 0, warnings: [] })
    expect(await everything(second, 'qa-1')).toEqual(before['qa-1'])
    expect(await everything(second, 'qa-2')).toEqual(before['qa-2'])
    expect(await everything(second, 'default')).toEqual(before.default)
    expect(
      (await second.collection<{ status: string }>('bookings', 'qa-2')).find(
        (booking) => (booking as { id?: string }).id === anchors.bookings.pending,
      )?.status,
    ).toBe('pending')
  })

  it('truncates a session log on reset, keeping the scenario it was reset to', async () => {
    const directory = stateDir()
    const first = await start(directory)
    await first.request(decline, { as: 'host', body: {}, session: 'qa-3' })
    const reset = await first.request('/__sandbox/reset', {
      body: { scenario: 'empty' },
      session: 'qa-3',
    })
    expect(reset.status).toBe(200)
    const [file] = readdirSync(join(directory, 'sessions'))
    expect(readFileSync(join(directory, 'sessions', file!), 'utf8')).toBe(
      `${JSON.stringify({ reset: { scenario: 'empty', seed: 20260601 } })}\n`,
    )
    const emptyState = await everything(first, 'qa-3')
    await first.close()

    const second = await start(directory)
    expect(await everything(second, 'qa-3')).toEqual(emptyState)
    expect((await second.collection('bookings', 'qa-3')).length).toBe(0)
  })

  it('logs resetAll({ scenario }): other sessions gone, the default session on the scenario', async () => {
    const directory = stateDir()
    const first = await start(directory)
    await first.request(decline, { as: 'host', body: {}, session: 'qa-4' })
    await first.request(decline, { as: 'host', body: {} })
    await first.sandbox.resetAll({ scenario: 'empty' })
    const files = readdirSync(join(directory, 'sessions'))
    expect(files).toHaveLength(1)
    expect(readFileSync(join(directory, 'sessions', files[0]!), 'utf8')).toBe(
      `${JSON.stringify({ reset: { scenario: 'empty', seed: 20260601 } })}\n`,
    )
    await first.close()

    const second = await start(directory)
    expect(second.restored).toMatchObject({ sessions: 1, warnings: [] })
    expect(logLines(directory)).toEqual([expect.stringContaining('"reset"')])
    expect(await second.collection('bookings')).toEqual([])
    expect(second.sandbox.sessionIds()).toEqual(['default'])
  })

  it('logs a reset to a saved snapshot and restores it', async () => {
    const directory = stateDir()
    const first = await start(directory)
    await first.request(decline, { as: 'host', body: {}, session: 'qa-5' })
    const saved = await first.request('/__sandbox/snapshots', {
      body: { name: 'declined' },
      session: 'qa-5',
    })
    expect(saved.status).toBe(201)
    const taken = await first.request('/__sandbox/snapshots', { body: { name: 'empty' } })
    expect(taken.status).toBe(409)
    await first.sandbox.resetAll({ snapshot: 'declined' })
    const declined = await everything(first, 'default')
    await first.close()

    const second = await start(directory)
    expect(await everything(second, 'default')).toEqual(declined)
    expect((await second.request<{ name: string }[]>('/__sandbox/snapshots')).body).toEqual([
      expect.objectContaining({ name: 'declined' }),
    ])
  })

  it('keeps a session id that is not a safe file name inside the directory', async () => {
    const directory = stateDir()
    const first = await start(directory)
    await first.request(decline, { as: 'host', body: {}, session: '..' })
    expect(readdirSync(join(directory, 'sessions'))).toEqual(['Li4.jsonl'])
    await first.close()
    const second = await start(directory)
    const bookings = await second.collection<{ id: string; status: string }>('bookings', '..')
    expect(bookings.find((booking) => booking.id === anchors.bookings.pending)?.status).toBe(
      'declined',
    )
  })
})
