import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import type { PersonaKey } from '../fixtures/personas.ts'
import { SESSION_CREATED_HEADER } from '../mocks/core/index.ts'
import type { Sandbox, SandboxOptions } from '../mocks/sandbox.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { signIn } from '../mocks/sandbox-client/sandbox-client.ts'
import { runTestCommand } from '../test-support/server/test-cli.ts'
import { fileOfSession, openStateDir, type StateDir } from './state-dir.ts'
import { type LogFiles, nodeLogFiles } from './state-log.ts'

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'sandbox-edges-'))
  directories.push(directory)
  return directory
}

interface Opened {
  sandbox: Sandbox
  state: StateDir
  as(persona: PersonaKey, path: string, session: string, body?: unknown): Promise<Answer>
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

/** A sandbox on `directory`, as the server opens it: what a restart gives. */
async function open(
  directory: string,
  files?: LogFiles,
  options: SandboxOptions = {},
): Promise<Opened> {
  const state = openStateDir(directory, options, files ? { files } : {})
  const sandbox = createSandbox(state.sandboxOptions)
  await state.restore(sandbox)
  const tokens = new Map<string, string>()
  return {
    sandbox,
    state,
    async as(persona, path, session, body = {}) {
      let token = tokens.get(persona)
      if (!token) {
        token = await signIn(sandbox, persona)
        tokens.set(persona, token)
      }
      const response = await sandbox.handle({
        method: 'POST',
        url: path,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-sandbox-session': session,
        },
        body: JSON.stringify(body),
      })
      return { status: response.status, headers: response.headers, body: response.body }
    },
  }
}

const decline = (booking: string = anchors.bookings.pending) => `/bookings/${booking}/decline`

async function bookingStatus(sandbox: Sandbox, session: string, id = anchors.bookings.pending) {
  return (await sandbox.store(session)).bookings.get(id)?.status
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean)
}

/** The real file layer, whose appends fail while `full` is set, after writing part of the line. */
function fillingDisk() {
  const disk = { full: false, truncateFails: false }
  const files: LogFiles = {
    ...nodeLogFiles,
    append(file, text, sync) {
      if (!disk.full) return nodeLogFiles.append(file, text, sync)
      appendFileSync(file, text.slice(0, Math.floor(text.length / 2)))
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    },
    truncate(file, size) {
      if (disk.truncateFails) {
        throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' })
      }
      nodeLogFiles.truncate(file, size)
    },
  }
  return { disk, files }
}

describe('a write whose log line cannot be written', () => {
  it('answers 503 with Retry-After, changes nothing, and the write after space is back lasts', async () => {
    const directory = temporaryDirectory()
    const { disk, files } = fillingDisk()
    const first = await open(directory, files)
    const log = fileOfSession(join(directory, 'sessions'), 'qa')
    expect((await first.as('host', decline(anchors.bookings.accepted), 'qa')).status).toBe(409)

    disk.full = true
    const refused = await first.as('host', decline(), 'qa', { reason: 'Zoë' })
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('5')
    expect(refused.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: ['storage error: ENOSPC'],
    })
    expect(await bookingStatus(first.sandbox, 'qa')).toBe('pending')
    expect(first.sandbox.journal.list('qa').at(-1)).toMatchObject({ status: 503 })
    // Nothing of the failed line is left.
    expect(readFileSync(log, 'utf8')).toBe('')

    disk.full = false
    const retried = await first.as('host', decline(), 'qa', { reason: 'Zoë' })
    expect(retried.status).toBe(201)
    expect(await bookingStatus(first.sandbox, 'qa')).toBe('declined')
    expect(lines(log)).toHaveLength(1)

    const second = await open(directory)
    expect(await bookingStatus(second.sandbox, 'qa')).toBe('declined')
  })

  it('cuts the part it left before the next append when it could not cut it at once', async () => {
    const directory = temporaryDirectory()
    const { disk, files } = fillingDisk()
    const first = await open(directory, files)
    const log = fileOfSession(join(directory, 'sessions'), 'qa')
    const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
    expect((await first.as('guest', follow, 'qa')).status).toBe(201)
    const logged = readFileSync(log, 'utf8')

    disk.full = true
    disk.truncateFails = true
    expect((await first.as('host', decline(), 'qa')).status).toBe(503)
    expect(readFileSync(log, 'utf8').length).toBeGreaterThan(logged.length)

    disk.full = false
    disk.truncateFails = false
    expect((await first.as('host', decline(), 'qa')).status).toBe(201)
    const [before, after, ...rest] = lines(log)
    expect(`${before}\n`).toBe(logged)
    expect(JSON.parse(after!)).toMatchObject({ url: decline() })
    expect(rest).toEqual([])

    const second = await open(directory)
    expect(await bookingStatus(second.sandbox, 'qa')).toBe('declined')
  })

  it('refuses a reset it cannot write, leaving the session as it was', async () => {
    const directory = temporaryDirectory()
    const files: LogFiles = {
      ...nodeLogFiles,
      replace() {
        throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' })
      },
    }
    const first = await open(directory, files)
    expect((await first.as('host', decline(), 'qa')).status).toBe(201)
    const reset = await first.sandbox.handle({
      method: 'POST',
      url: '/__sandbox/reset',
      headers: { 'x-sandbox-session': 'qa' },
    })
    expect(reset.status).toBe(503)
    expect(reset.body).toMatchObject({ details: ['storage error: EROFS'] })
    expect(await bookingStatus(first.sandbox, 'qa')).toBe('declined')
  })

  it('refuses an uploaded scenario or a saved snapshot it cannot write, adding nothing', async () => {
    const directory = temporaryDirectory()
    const disk = { readOnly: false }
    const files: LogFiles = {
      ...nodeLogFiles,
      replace(file, text, sync) {
        if (!disk.readOnly) return nodeLogFiles.replace(file, text, sync)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
      },
    }
    const first = await open(directory, files)
    const control = (url: string, body: object) =>
      first.sandbox.handle({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    disk.readOnly = true
    for (const refused of [
      await control('/__sandbox/scenarios', { name: 'no-bookings', extends: 'default' }),
      await control('/__sandbox/snapshots', { name: 'kept' }),
    ]) {
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe('5')
      expect(refused.body).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        details: ['storage error: ENOSPC'],
      })
    }
    expect(Object.keys(first.sandbox.scenarios)).not.toContain('no-bookings')
    expect(first.sandbox.snapshots.list()).toEqual([])
    expect(readdirSync(join(directory, 'scenarios'))).toEqual([])
    expect(readdirSync(join(directory, 'snapshots'))).toEqual([])

    disk.readOnly = false
    expect((await control('/__sandbox/scenarios', { name: 'no-bookings' })).status).toBe(201)
    expect((await control('/__sandbox/snapshots', { name: 'kept' })).status).toBe(201)
    const second = await open(directory)
    expect(Object.keys(second.sandbox.scenarios)).toContain('no-bookings')
    expect(second.sandbox.snapshots.list().map(({ name }) => name)).toEqual(['kept'])
  })
})

describe('a control call whose write the disk refuses', () => {
  /** The real file layer, whose replaces and removes fail while `full` is set. */
  function fullDisk() {
    const disk = { full: false }
    const failing = (action: () => void) => {
      if (disk.full) throw Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' })
      action()
    }
    const files: LogFiles = {
      ...nodeLogFiles,
      replace: (file, text, sync) => failing(() => nodeLogFiles.replace(file, text, sync)),
      remove: (file) => failing(() => nodeLogFiles.remove(file)),
    }
    return { disk, files }
  }

  // Every control call that writes to the state directory; faults, the clock and the journal
  // are kept in memory only.
  const writes = [
    ['POST', '/__sandbox/reset', {}],
    ['POST', '/__sandbox/snapshots', { name: 'fresh' }],
    ['POST', '/__sandbox/snapshots', { name: 'kept', replace: true }],
    ['DELETE', '/__sandbox/snapshots/kept', undefined],
    ['DELETE', '/__sandbox/sessions/qa', undefined],
  ] as const

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After to each, and changes nothing', async () => {
    const directory = temporaryDirectory()
    const { disk, files } = fullDisk()
    const first = await open(directory, files)
    const control = (method: string, url: string, body?: unknown) =>
      first.sandbox.handle({
        method,
        url,
        headers: { 'x-sandbox-session': 'qa', 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      })
    expect((await control('POST', '/__sandbox/snapshots', { name: 'kept' })).status).toBe(201)
    expect((await first.as('host', decline(), 'qa')).status).toBe(201)
    const kept = readFileSync(join(directory, 'snapshots', 'kept.json'), 'utf8')

    disk.full = true
    for (const [method, url, body] of writes) {
      const refused = await control(method, url, body)
      const where = `${method} ${url} ${JSON.stringify(body)}`
      expect(refused.status, where).toBe(503)
      expect(refused.headers['retry-after'], where).toBe('5')
      expect(refused.body, where).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        details: ['storage error: ENOSPC'],
      })
    }
    expect(await bookingStatus(first.sandbox, 'qa')).toBe('declined')
    expect(first.sandbox.sessionIds()).toContain('qa')
    expect(first.sandbox.snapshots.list().map((snapshot) => snapshot.name)).toEqual(['kept'])
    expect((await first.sandbox.snapshots.export('kept')).name).toBe('kept')
    expect(readdirSync(join(directory, 'snapshots'))).toEqual(['kept.json'])
    expect(readFileSync(join(directory, 'snapshots', 'kept.json'), 'utf8')).toBe(kept)

    disk.full = false
    for (const [method, url, body] of writes) {
      expect((await control(method, url, body)).status, `${method} ${url}`).toBeLessThan(300)
    }
    const second = await open(directory)
    expect(second.sandbox.snapshots.list().map((snapshot) => snapshot.name)).toEqual(['fresh'])
  })
})

describe('a session log cut short by a crash', () => {
  it('is cut by bytes: a torn line of non-ASCII text leaves nothing behind, and later writes last', async () => {
    const directory = temporaryDirectory()
    const first = await open(directory)
    const reason = 'Zoë — 東京 🚀'
    expect((await first.as('host', decline(), 'qa', { reason })).status).toBe(201)
    const log = fileOfSession(join(directory, 'sessions'), 'qa')
    const whole = readFileSync(log)
    // A crash in the middle of the next append: most of a line, ending inside a character.
    const torn = Buffer.from(whole.toString('utf8').replace(reason, `${reason}${reason}`))
    appendFileSync(log, torn.subarray(0, whole.length + 3))

    const second = await open(directory)
    expect(await bookingStatus(second.sandbox, 'qa')).toBe('declined')
    expect(readFileSync(log)).toEqual(whole)
    const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
    expect((await second.as('guest', follow, 'qa')).status).toBe(201)

    const third = await open(directory)
    expect(await bookingStatus(third.sandbox, 'qa')).toBe('declined')
    const venue = (await third.sandbox.store('qa')).venues.get(anchors.venues.claimRequested)
    expect(venue?.claimStatus).toBe('claim_requested')
    expect(lines(log).map((line) => JSON.parse(line).url)).toEqual([decline(), follow])
    const declined = (await third.sandbox.store('qa')).bookings.get(anchors.bookings.pending)
    expect(declined).toMatchObject({ declineReason: reason })
  })
})

describe('a line before the last that does not parse', () => {
  it('makes its session answer 503 naming file and line, leaves the log as it is, and serves the others', async () => {
    const directory = temporaryDirectory()
    const first = await open(directory)
    const follow = `/venues/${anchors.venues.claimRequested}/send-claim-email`
    expect((await first.as('guest', follow, 'broken')).status).toBe(201)
    expect((await first.as('host', decline(), 'broken')).status).toBe(201)
    expect((await first.as('host', decline(), 'fine')).status).toBe(201)
    const log = fileOfSession(join(directory, 'sessions'), 'broken')
    const [one, two] = lines(log)
    const corrupt = `${one}\n{"time": garbage\n${two}\n`
    writeFileSync(log, corrupt)

    const second = await open(directory)
    const refused = await second.as('host', decline(), 'broken')
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: [
        expect.stringMatching(new RegExp(`^${log}:2: `)),
        expect.stringContaining('state repair'),
      ],
    })
    const control = await second.sandbox.handle({
      method: 'GET',
      url: '/__sandbox/collections/bookings',
      headers: { 'x-sandbox-session': 'broken' },
    })
    expect(control.status).toBe(503)
    const reset = await second.sandbox.handle({
      method: 'POST',
      url: '/__sandbox/reset',
      headers: { 'x-sandbox-session': 'broken' },
    })
    expect(reset.status).toBe(503)
    expect(readFileSync(log, 'utf8')).toBe(corrupt)

    expect(await bookingStatus(second.sandbox, 'fine')).toBe('declined')
    expect((await second.as('guest', follow, 'other')).status).toBe(201)

    // `state check` finds it; `state repair` sets the log aside from it, deleting nothing.
    const check = await runTestCommand(['state', 'check', directory])
    expect(check.code).toBe(2)
    expect(check.stdout).toContain(`${log}:2: session "broken"`)
    const repair = await runTestCommand(['state', 'repair', directory])
    expect(repair.code, repair.stdout + repair.stderr).toBe(0)
    expect(readFileSync(`${log}.corrupt`, 'utf8')).toBe(`{"time": garbage\n${two}\n`)
    expect(readFileSync(log, 'utf8')).toBe(`${one}\n`)
    expect((await runTestCommand(['state', 'check', directory])).code).toBe(0)
    const third = await open(directory)
    const venue = (await third.sandbox.store('broken')).venues.get(anchors.venues.claimRequested)
    expect(venue?.claimStatus).toBe('claim_requested')
    expect(await bookingStatus(third.sandbox, 'broken')).toBe('pending')
  })
})

describe('more session logs than the session cap', () => {
  it('keeps every session as its log says, in memory or not, across a restart', async () => {
    const directory = temporaryDirectory()
    const sessions = ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7']
    const options = { maxSessions: 3 }
    const first = await open(directory, undefined, options)
    for (const [index, session] of sessions.entries()) {
      // Even sessions decline the booking, odd ones leave it pending and request a claim.
      const answer =
        index % 2 === 0
          ? await first.as('host', decline(), session)
          : await first.as(
              'guest',
              `/venues/${anchors.venues.claimRequested}/send-claim-email`,
              session,
            )
      expect(answer.status).toBe(201)
    }
    expect(first.sandbox.sessionCount).toBeLessThanOrEqual(3)
    // Evicted sessions come back from their logs, without saying they were created.
    const back = await first.as('host', decline(), 's0')
    expect(back.status).toBe(409)
    expect(back.headers[SESSION_CREATED_HEADER]).toBeUndefined()

    const second = await open(directory, undefined, options)
    expect(second.sandbox.sessionCount).toBe(0)
    for (const [index, session] of [...sessions.entries()].reverse()) {
      expect(await bookingStatus(second.sandbox, session), session).toBe(
        index % 2 === 0 ? 'declined' : 'pending',
      )
    }
    expect(readdirSync(join(directory, 'sessions'))).toHaveLength(sessions.length)
  })
})

describe('the logs on disk', () => {
  it('are deleted past the retention period when their session is not in memory', async () => {
    const directory = temporaryDirectory()
    const day = 24 * 60 * 60 * 1000
    const state = openStateDir(directory, {}, { sessionTtlMs: 7 * day })
    const sandbox = createSandbox(state.sandboxOptions)
    await state.restore(sandbox)
    const token = await signIn(sandbox, 'host')
    for (const session of ['old', 'recent', 'in-use']) {
      const answer = await sandbox.handle({
        method: 'POST',
        url: decline(),
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-sandbox-session': session,
        },
        body: '{}',
      })
      expect(answer.status).toBe(201)
    }
    sandbox.dropSession('old')
    sandbox.dropSession('recent')
    const sessionsDir = join(directory, 'sessions')
    // Dropping a session deletes its log: write them again as a past run left them.
    expect(readdirSync(sessionsDir)).toEqual([fileOfSession('', 'in-use')])
    const written = readFileSync(fileOfSession(sessionsDir, 'in-use'), 'utf8')
    writeFileSync(fileOfSession(sessionsDir, 'old'), written)
    writeFileSync(fileOfSession(sessionsDir, 'recent'), written)
    const now = Date.now()
    const ago = (ms: number) => new Date(now - ms)
    utimesSync(fileOfSession(sessionsDir, 'old'), ago(8 * day), ago(8 * day))
    utimesSync(fileOfSession(sessionsDir, 'recent'), ago(6 * day), ago(6 * day))
    utimesSync(fileOfSession(sessionsDir, 'in-use'), ago(30 * day), ago(30 * day))

    expect(await state.sweep(new Date(now))).toBe(1)
    expect(readdirSync(sessionsDir).sort()).toEqual(
      [fileOfSession('', 'in-use'), fileOfSession('', 'recent')].sort(),
    )
    expect(await bookingStatus(sandbox, 'recent')).toBe('declined')
    expect(await bookingStatus(sandbox, 'old')).toBe('pending')
  })

  it('lose the log of a session dropped through the control API', async () => {
    const directory = temporaryDirectory()
    const first = await open(directory)
    expect((await first.as('host', decline(), 'qa')).status).toBe(201)
    const log = fileOfSession(join(directory, 'sessions'), 'qa')
    expect(lines(log)).toHaveLength(1)
    const dropped = await first.sandbox.handle({
      method: 'DELETE',
      url: '/__sandbox/sessions/qa',
      headers: {},
    })
    expect(dropped.status).toBe(204)
    expect(readdirSync(join(directory, 'sessions'))).toEqual([])
    expect(await bookingStatus(first.sandbox, 'qa')).toBe('pending')
  })
})
