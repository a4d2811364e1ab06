import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { startTestCli } from './test-cli.ts'
import { createTestClient } from './test-server.ts'

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const startCli = (directory: string) => startTestCli(['--state-dir', directory])

describe('platform-sandbox --state-dir and saved snapshots, across a process restart', () => {
  it('restores the snapshots and the sessions reset to them', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-snapshots-cli-'))
    directories.push(directory)
    const first = startCli(directory)
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

    const second = startCli(directory)
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
      expect(stdout).toMatch(/2 writes of 2 sessions restored, 1 saved snapshots/)
    }
  }, 60_000)

  it('exits with code 2 on a corrupt snapshot file, naming it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-snapshots-cli-'))
    directories.push(directory)
    const broken = join(directory, 'snapshots', 'broken.json')
    const first = startCli(directory)
    await first.url
    await first.stop()
    writeFileSync(broken, 'not json')
    const second = startCli(directory)
    const { code, stderr } = await second.exited
    expect(code).toBe(2)
    expect(stderr).toContain(`${broken}: not valid JSON (`)
  }, 60_000)
})
