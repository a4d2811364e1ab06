import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarEntry } from '../../recordings/har.ts'
import { createHarFile } from '../../recordings/record/har-file.ts'
import { startRecordProxy } from '../../recordings/record/record-proxy.ts'
import {
  type FakeBackend,
  startFakeBackend,
} from '../../test-support/fake-backend/start-fake-backend.ts'
import { runCli } from '../../test-support/recordings/test-run-cli.ts'
import { createTestClient } from '../../test-support/server/test-server.ts'

let backend: FakeBackend
let folder: string
let harPath: string

beforeAll(async () => {
  backend = await startFakeBackend()
  folder = mkdtempSync(join(tmpdir(), 'sandbox-replay-cli-'))
  harPath = join(folder, 'staging.har')
  const file = createHarFile(harPath)
  const proxy = await startRecordProxy({ target: new URL(backend.url), file })
  const client = createTestClient(proxy.url)
  await client.request('/payprov/account-status', { as: 'host' })
  await client.request('/bookings/bkg_accepted/decline?dryRun=true', { as: 'host', body: {} })
  client.agent.destroy()
  await proxy.close()
  await backend.close()
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('platform-sandbox --replay', () => {
  it('answers recorded requests from the recording, names those that break the contract, and the rest from the model', async () => {
    const run = runCli(['--port', '0', '--quiet', '--replay', harPath])
    try {
      const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/)
      await run.waitFor(/break the merged contract:\n(.*\n){2}/, 'stderr')
      expect(run.stderr()).toContain('2 recorded answers break the merged contract:')
      expect(run.stderr()).toContain(
        '#2 GET /payprov/account-status: the 200 answer of getAccountStatus breaks the contract',
      )
      expect(run.stderr()).toContain(
        '#3 POST /bookings/bkg_accepted/decline?dryRun=true: declineBooking does not document status 422',
      )
      const client = createTestClient(url!)
      // The recorded answers, whatever the token: matching ignores headers.
      const status = await client.request('/payprov/account-status', { as: 'guest' })
      expect(status.body).toMatchObject({ payoutsEnabled: true })
      const decline = await client.request('/bookings/bkg_accepted/decline?dryRun=true', {
        as: 'host',
        body: {},
      })
      expect(decline.status).toBe(422)
      // Not recorded: the model answers.
      const other = await client.request('/bookings/bkg_pending/decline?dryRun=true', {
        as: 'host',
        body: {},
      })
      expect(other.status).toBe(201)
      client.agent.destroy()
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
  })

  it('leaves an entry of no operation of the API out of the check, and says so', async () => {
    const har = JSON.parse(readFileSync(harPath, 'utf8'))
    har.log.entries.push(
      createHarEntry({
        method: 'GET',
        url: 'http://staging.test/assets/app.js',
        requestHeaders: {},
        status: 200,
        responseHeaders: { 'content-type': 'text/javascript' },
        responseBody: 'export {}',
        startedDateTime: '2026-06-01T10:00:00.000Z',
        time: 1,
      }),
    )
    const file = join(folder, 'with-asset.har')
    writeFileSync(file, JSON.stringify(har))
    const run = runCli(['--port', '0', '--quiet', '--replay', file])
    try {
      await run.waitFor(/break the merged contract:\n(.*\n){2}/, 'stderr')
      await run.waitFor(/Left out of the check .*\n/)
      expect(run.stdout()).toContain(
        '\n  Left out of the check 1 entry that is no operation of the API: #4 GET /assets/app.js\n',
      )
      const warnings = run.stderr().trim().split('\n')
      expect(warnings[0]).toBe('2 recorded answers break the merged contract:')
      expect(warnings.slice(1).map((line) => line.trim().split(':')[0])).toEqual([
        '#2 GET /payprov/account-status',
        '#3 POST /bookings/bkg_accepted/decline?dryRun=true',
      ])
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
  })

  it('with --replay-only answers 404 when no recording matches', async () => {
    const run = runCli(['--port', '0', '--quiet', '--replay', harPath, '--replay-only'])
    try {
      const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/)
      const client = createTestClient(url!)
      const other = await client.request('/bookings/bkg_pending/decline?dryRun=true', {
        body: {},
      })
      expect(other.status).toBe(404)
      expect(other.body).toEqual({
        message: 'No recording matched POST /bookings/bkg_pending/decline',
        code: 'NOT_FOUND',
      })
      client.agent.destroy()
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
  })

  it('refuses a malformed recording with one line and exit code 2', async () => {
    const bad = join(folder, 'bad.har')
    writeFileSync(bad, '{"log": {"entries": [{"request": {}}]}}')
    const run = runCli(['--port', '0', '--replay', bad])
    expect(await run.exited).toBe(2)
    expect(run.stderr().trim().split('\n')).toHaveLength(1)
    expect(run.stderr()).toContain(`${bad}: not a HAR 1.2 document: log.entries.0.request.method`)
    expect(run.stdout()).toBe('')
  })

  it('ends with one line and exit code 2 when an entry deep in the file is malformed', async () => {
    const text = readFileSync(harPath, 'utf8')
    const entries = JSON.parse(text).log.entries
    const many = Array.from({ length: 3000 }, () => entries[0])
    const bad = join(folder, 'deep.har')
    const good = JSON.stringify({ log: { version: '1.2', entries: many } })
    const at = good.lastIndexOf('"status":200')
    writeFileSync(bad, `${good.slice(0, at)}"status":"2OO"${good.slice(at + 12)}`)
    const run = runCli(['--port', '0', '--quiet', '--replay', bad])
    expect(await run.exited).toBe(2)
    const lines = run.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe(
      `platform-sandbox: ${bad}: not a HAR 1.2 document: log.entries.2999.response.status: expected an HTTP status from 100 to 599`,
    )
  })

  it('refuses with one line and exit code 2 a file with a syntax error deep in it, naming where', async () => {
    const text = readFileSync(harPath, 'utf8')
    const entries = JSON.parse(text).log.entries
    const many = Array.from({ length: 3000 }, () => entries[0])
    const bad = join(folder, 'deep-syntax.har')
    const good = JSON.stringify({ log: { version: '1.2', entries: many } })
    const at = good.lastIndexOf('"status":200')
    writeFileSync(bad, `${good.slice(0, at)}"status":2OO${good.slice(at + 12)}`)
    const run = runCli(['--port', '0', '--quiet', '--replay', bad])
    expect(await run.exited).toBe(2)
    const lines = run.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    const position = at + '"status":2'.length
    expect(lines[0]).toBe(
      `platform-sandbox: ${bad}: is not valid JSON (Expected ',' or '}' after property value in JSON at position ${position} (line 1 column ${position + 1}))`,
    )
    expect(run.stdout()).toBe('')
  })
})
