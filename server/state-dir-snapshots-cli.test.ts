import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { createTestClient } from '../test-support/server/test-server.ts'
import { startStateDirCli, useStateDirServers } from '../test-support/server/test-state-dir.ts'

const { temporaryDirectory } = useStateDirServers('sandbox-snapshots-cli-')

describe('platform-sandbox --state-dir and saved snapshots, across a process restart', () => {
  it('restores the snapshots and the sessions reset to them', async () => {
    const directory = temporaryDirectory()
    const first = startStateDirCli(directory)
    let records: unknown
    let sessionA: unknown
    try {
      const client = createTestClient(await first.url)
      const decline = `/bookings/${anchors.bookings.pending}/decline`
      expect((await client.request(decline, { as: 'host', body: {}, session: 'qa' })).status).toBe(
        201,
      )
      const saved = await client.request('/__sandbox/snapshots', {
        body: { name: 'declined' },
        session: 'qa',
      })
      expect(saved.status).toBe(201)
      await client.request('/__sandbox/reset', { body: { snapshot: 'declined' }, session: 'A' })
      records = await client.collection('bookings', 'A')
      const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
      expect((await client.request(follow, { as: 'guest', body: {}, session: 'A' })).status).toBe(
        201,
      )
      sessionA = await client.collection('notifications', 'A')
      client.agent.destroy()
    } finally {
      expect((await first.stop()).code).toBe(0)
    }

    const second = startStateDirCli(directory)
    try {
      const client = createTestClient(await second.url)
      const list = await client.request<{ name: string }[]>('/__sandbox/snapshots')
      expect(list.body.map((snapshot) => snapshot.name)).toEqual(['declined'])
      await client.request('/__sandbox/reset', { body: { snapshot: 'declined' }, session: 'B' })
      expect(await client.collection('bookings', 'B')).toEqual(records)
      expect(await client.collection('notifications', 'A')).toEqual(sessionA)
      client.agent.destroy()
    } finally {
      const { code, stdout } = await second.stop()
      expect(code).toBe(0)
      expect(stdout).toMatch(
        /2 session logs \(each loaded when its session is first used\), 1 saved snapshots restored/,
      )
    }
  }, 60_000)

  it('exits with code 2 on a corrupt snapshot file, naming it', async () => {
    const directory = temporaryDirectory()
    const broken = join(directory, 'snapshots', 'broken.json')
    const first = startStateDirCli(directory)
    await first.url
    await first.stop()
    writeFileSync(broken, 'not json')
    const second = startStateDirCli(directory)
    const { code, stderr } = await second.exited
    expect(code).toBe(2)
    expect(stderr).toContain(`${broken}: not valid JSON (`)
  }, 60_000)

  it('exits with code 2 and one line when it cannot write the state directory', async () => {
    // A folder under a file: not writable by anyone, root included.
    const file = join(temporaryDirectory(), 'a-file')
    writeFileSync(file, '')
    const cli = startStateDirCli(join(file, 'state'))
    const { code, stderr } = await cli.exited
    expect(code).toBe(2)
    expect(stderr.trim()).toMatch(
      /^platform-sandbox: cannot write the state directory .*a-file\/state \(ENOTDIR\): make it writable by user \d+, or choose another with --state-dir$/,
    )
  }, 60_000)
})
