import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { encodeRecord, logFileName, type WriteRecord } from '../../server/state-log.ts'
import { runTestCommand as run } from '../../test-support/server/test-cli.ts'
import { useStateDirServers } from '../../test-support/server/test-state-dir.ts'

const { temporaryDirectory, start } = useStateDirServers('sandbox-state-command-')

const write = (index: number): WriteRecord => ({
  time: '2025-03-01T09:30:00.000Z',
  method: 'POST',
  url: `/bookings/bkg_${index}/decline`,
  headers: { 'content-type': 'application/json' },
  body: '{"note":"Zoë — 東京"}',
})
const reset = encodeRecord({ reset: { scenario: 'default', seed: 1 } })

/** A state directory whose logs are `logs` (session id to text). */
function stateDir(logs: Record<string, string>): string {
  const directory = temporaryDirectory()
  mkdirSync(join(directory, 'sessions'))
  for (const [session, text] of Object.entries(logs)) {
    writeFileSync(join(directory, 'sessions', logFileName(session)), text)
  }
  return directory
}

const writes = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => encodeRecord(write(from + index))).join('')

describe('platform-sandbox state check', () => {
  it('exits 0 on a clean directory, with the counts', async () => {
    const directory = stateDir({ qa: `${reset}${writes(0, 3)}`, other: writes(3, 5) })
    const { code, stdout } = await run(['state', 'check', directory])
    expect(code).toBe(0)
    expect(stdout).toBe('2 session logs, 5 writes, 0 snapshots: 0 problems\n')
  }, 60_000)

  it('exits 2 on a corrupt middle line, naming file, line and session', async () => {
    const directory = stateDir({ qa: `${reset}${writes(0, 2)}{"time": oops\n${writes(2, 9)}` })
    const { code, stdout } = await run(['state', 'check', directory])
    expect(code).toBe(2)
    const file = join(directory, 'sessions', logFileName('qa'))
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${file}:4: session "qa": not valid JSON \\(Unexpected token`),
      ),
      '1 session log, 2 writes, 0 snapshots: 1 problem',
      `Run platform-sandbox state repair ${directory} to set each session log aside from its bad line on (nothing is deleted).`,
      '',
    ])
  }, 60_000)

  it('notes a torn last line (a start cuts it) without counting it as a problem', async () => {
    const torn = encodeRecord(write(9))
    const directory = stateDir({ qa: `${writes(0, 2)}${torn.slice(0, torn.indexOf('東') + 1)}` })
    const { code, stdout } = await run(['state', 'check', directory])
    expect(code).toBe(0)
    expect(stdout).toMatch(/:3: session "qa": note: last line cut short by a crash \(\d+ bytes/)
    expect(stdout).toMatch(/1 session log, 2 writes, 0 snapshots: 0 problems\n$/)
  }, 60_000)

  it('checks the snapshots as a start restores them: rebuilt on their scenario', async () => {
    const directory = temporaryDirectory()
    const server = await start(directory)
    const decline = `/bookings/${anchors.bookings.pending}/decline`
    expect((await server.request(decline, { as: 'host', body: {}, session: 'qa' })).status).toBe(
      201,
    )
    const saved = await server.request('/__sandbox/snapshots', {
      body: { name: 'declined' },
      session: 'qa',
    })
    expect(saved.status).toBe(201)
    await server.close()
    const clean = await run(['state', 'check', directory])
    expect(clean.stdout).toBe('1 session log, 1 write, 1 snapshot: 0 problems\n')
    expect(clean.code).toBe(0)

    const file = join(directory, 'snapshots', 'declined.json')
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { scenario: string }
    writeFileSync(file, JSON.stringify({ ...snapshot, scenario: 'from-a-file' }))
    const broken = await run(['state', 'check', directory])
    expect(broken.code).toBe(2)
    expect(broken.stdout).toContain(
      `${file}: scenario: "from-a-file" is not a scenario of this sandbox; load it with the same scenario files as when the snapshot was saved (give them with --scenario-file)`,
    )
    expect(broken.stdout).toContain('1 session log, 1 write, 1 snapshot: 1 problem\n')
  }, 60_000)

  it('rebuilds a snapshot of an uploaded scenario on the scenario the directory keeps', async () => {
    const directory = temporaryDirectory()
    const server = await start(directory)
    const file = {
      name: 'no-bookings',
      extends: 'default',
      remove: { bookings: [anchors.bookings.pending] },
    }
    expect((await server.request('/__sandbox/scenarios', { body: file })).status).toBe(201)
    await server.request('/__sandbox/reset', { body: { scenario: 'no-bookings' }, session: 'qa' })
    const saved = await server.request('/__sandbox/snapshots', {
      body: { name: 'kept' },
      session: 'qa',
    })
    expect(saved.body).toMatchObject({ scenario: 'no-bookings' })
    await server.close()
    const clean = await run(['state', 'check', directory])
    expect(clean.stdout).toBe('1 session log, 0 writes, 1 snapshot: 0 problems\n')
    expect(clean.code).toBe(0)
  }, 60_000)

  it('refuses a directory that does not exist, on one line, with exit code 2', async () => {
    const missing = join(temporaryDirectory(), 'missing')
    const { code, stdout, stderr } = await run(['state', 'check', missing])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(`platform-sandbox: ${missing}: no such directory\n`)
  }, 60_000)
})

describe('platform-sandbox state repair', () => {
  it('sets aside exactly the lines from the bad one on, after which check exits 0', async () => {
    const kept = `${reset}${writes(0, 2)}`
    const rest = `{"time": oops\n${writes(2, 9)}`
    const directory = stateDir({ qa: `${kept}${rest}`, clean: writes(10, 12) })
    const sessions = join(directory, 'sessions')
    const file = join(sessions, logFileName('qa'))

    const repair = await run(['state', 'repair', directory])
    expect(repair.code).toBe(0)
    expect(repair.stdout.split('\n')).toEqual([
      `${file}: session "qa": set aside line 4 and after (8 lines, 7 readable writes) in ${file}.corrupt; 2 writes kept`,
      '2 session logs, 4 writes, 0 snapshots: 0 problems',
      '',
    ])
    expect(readFileSync(file, 'utf8')).toBe(kept)
    expect(readFileSync(`${file}.corrupt`, 'utf8')).toBe(rest)

    const check = await run(['state', 'check', directory])
    expect(check.code).toBe(0)
    const again = await run(['state', 'repair', directory])
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(
      'No session log to repair.\n2 session logs, 4 writes, 0 snapshots: 0 problems\n',
    )

    // A second bad line later: set aside in a new file, the first one left as it was.
    writeFileSync(file, `${kept}[]\n`)
    expect((await run(['state', 'repair', directory])).code).toBe(0)
    expect(readdirSync(sessions).sort()).toEqual(
      [
        logFileName('clean'),
        logFileName('qa'),
        `${logFileName('qa')}.2.corrupt`,
        `${logFileName('qa')}.corrupt`,
      ].sort(),
    )
    expect(readFileSync(`${file}.corrupt`, 'utf8')).toBe(rest)
    expect(readFileSync(`${file}.2.corrupt`, 'utf8')).toBe('[]\n')
    expect(readFileSync(file, 'utf8')).toBe(kept)
  }, 60_000)

  it('cuts a torn last line by bytes, and reports snapshot files without touching them', async () => {
    const torn = encodeRecord(write(9))
    const directory = stateDir({ qa: `${writes(0, 2)}${torn.slice(0, torn.indexOf('東') + 1)}` })
    mkdirSync(join(directory, 'snapshots'))
    const snapshot = join(directory, 'snapshots', 'broken.json')
    writeFileSync(snapshot, '{"version": 1')
    const file = join(directory, 'sessions', logFileName('qa'))

    const repair = await run(['state', 'repair', directory])
    expect(repair.code).toBe(2)
    expect(repair.stdout).toMatch(
      new RegExp(
        `^${file}: session "qa": cut its last line, cut short by a crash \\(\\d+ bytes\\)\n`,
      ),
    )
    expect(repair.stdout).toContain(`${snapshot}: not valid JSON (`)
    expect(repair.stdout).toMatch(
      /1 session log, 2 writes, 1 snapshot: 1 problem\n.*fix or remove the file/,
    )
    expect(readFileSync(file, 'utf8')).toBe(writes(0, 2))
    expect(readFileSync(snapshot, 'utf8')).toBe('{"version": 1')
  }, 60_000)
})
