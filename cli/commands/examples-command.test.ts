import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../mocks/sandbox.ts'
import { createHarFile } from '../../recordings/record/har-file.ts'
import { startRecordProxy } from '../../recordings/record/record-proxy.ts'
import { type RecordedExampleFile, recordedExampleFileSchema } from '../../spec/examples/index.ts'
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
  folder = mkdtempSync(join(tmpdir(), 'sandbox-examples-'))
  harPath = join(folder, 'staging.har')
  const proxy = await startRecordProxy({
    target: new URL(backend.url),
    file: createHarFile(harPath),
  })
  const client = createTestClient(proxy.url)
  await client.request('/payprov/account-status', { as: 'host' })
  await client.request('/bookings/bkg_accepted/decline?dryRun=true', { as: 'host', body: {} })
  await client.request('/payprov/account-status', {
    headers: { authorization: 'Bearer not-a-jwt' },
  })
  client.agent.destroy()
  await proxy.close()
  await backend.close()
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function readExamples(dir: string, operationId: string): RecordedExampleFile {
  return recordedExampleFileSchema.parse(
    JSON.parse(readFileSync(join(dir, `${operationId}.json`), 'utf8')),
  )
}

describe('platform-sandbox examples from-har', () => {
  it('writes example files, with the persona inferred from the token', async () => {
    const out = mkdtempSync(join(folder, 'all-'))
    const run = runCli(['examples', 'from-har', harPath, '--out-dir', out])
    expect(await run.exited).toBe(0)
    expect(readdirSync(out).sort()).toEqual([
      'declineBooking.json',
      'getAccountStatus.json',
      'refreshToken.json',
    ])
    const status = readExamples(out, 'getAccountStatus')
    expect(status.path).toBe('/payprov/account-status')
    expect(Object.keys(status.examples)).toEqual(['recorded200', 'recorded401'])
    expect(status.examples.recorded200?.request).toEqual({ as: 'host' })
    expect(status.examples.recorded200?.response.body).toMatchObject({ payoutsEnabled: true })
    // A token of nobody known stays a header (redacted in the recording).
    expect(status.examples.recorded401?.request).toEqual({ authorization: 'Bearer [REDACTED]' })
    const decline = readExamples(out, 'declineBooking')
    expect(decline.examples.recorded422?.request).toEqual({
      as: 'host',
      params: { bookingId: 'bkg_accepted' },
      query: { dryRun: 'true' },
      body: {},
    })
    expect(run.stdout()).toContain('getAccountStatus.json: 2 examples added')
  })

  it('adds to an existing file, only the operation asked for, and the result replays', async () => {
    const out = mkdtempSync(join(folder, 'one-'))
    const original = fileURLToPath(
      new URL('../../spec/examples/declineBooking.json', import.meta.url),
    )
    copyFileSync(original, join(out, 'declineBooking.json'))
    const before = readExamples(out, 'declineBooking')
    const run = runCli([
      'examples',
      'from-har',
      harPath,
      '--operation',
      'declineBooking',
      '--out-dir',
      out,
    ])
    expect(await run.exited).toBe(0)
    expect(readdirSync(out)).toEqual(['declineBooking.json'])
    const after = readExamples(out, 'declineBooking')
    expect(Object.keys(after.examples)).toEqual([...Object.keys(before.examples), 'recorded422'])

    const sandbox = createSandbox({ replay: { recordings: after } })
    const answer = await sandbox.handle({
      method: 'POST',
      url: '/bookings/bkg_accepted/decline?dryRun=true',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(answer.status).toBe(422)
  })

  it('creates the output folder when it does not exist yet', async () => {
    const out = join(mkdtempSync(join(folder, 'new-')), 'spec', 'examples')
    const run = runCli(['examples', 'from-har', harPath, '--out-dir', out])
    expect(await run.exited).toBe(0)
    expect(run.stdout()).toContain(`${out}: created`)
    expect(readdirSync(out).sort()).toEqual([
      'declineBooking.json',
      'getAccountStatus.json',
      'refreshToken.json',
    ])
  })

  it('refuses a file that is not a HAR, with one line and exit code 2', async () => {
    const out = mkdtempSync(join(folder, 'bad-'))
    const run = runCli(['examples', 'from-har', join(folder, 'missing.har'), '--out-dir', out])
    expect(await run.exited).toBe(2)
    expect(run.stderr().trim()).toBe(
      `platform-sandbox: ${join(folder, 'missing.har')}: cannot be read (no such file)`,
    )
    expect(readdirSync(out)).toEqual([])
  })
})
