import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import examples from '../../examples/operations/index.mjs'
import type { AnyOperationDeclaration } from '../../mocks/core/index.ts'
import { type OperationKit, operationKit } from '../../mocks/operation-kit.ts'
import { diffBackends } from '../../recordings/diff/diff.ts'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import { PLANTED_DIFFERENCES } from '../../test-support/fake-backend/fake-backend.ts'
import {
  type FakeBackend,
  startFakeBackend,
} from '../../test-support/fake-backend/start-fake-backend.ts'
import { runCli } from '../../test-support/recordings/test-run-cli.ts'
import { startTestServer } from '../../test-support/server/test-server.ts'
import { differingOperations } from './diff-command.ts'

// The shipped file is typed by the built package; here it is given the sources' kit.
const hostScreens = examples as unknown as (kit: OperationKit) => AnyOperationDeclaration[]

let backend: FakeBackend
let folder: string
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sandbox-diff-'))
  backend = await startFakeBackend()
})
afterAll(async () => {
  await backend?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

describe('platform-sandbox diff', () => {
  it('names exactly the planted differences of the fake backend, and exits with 1', async () => {
    const report = join(folder, 'drift.md')
    const run = runCli(['diff', '--target', backend.url, '--report', report])
    expect(await run.exited).toBe(1)
    expect(run.stdout()).toContain('3 operations differ:')
    const text = readFileSync(report, 'utf8')
    expect(text).toContain('| getAccountStatus |  | differs |  |')
    expect(text).toContain('| declineBooking | differs |  |  |')
    expect(text).toContain('| followUser |  |  | differs |')
    expect(text).toContain('body.payouts_enabled only in the sandbox')
    expect(text).toContain('body.payoutsEnabled only at the target')
    expect(text).toContain('status 409 in the sandbox, 422 at the target')
    expect(text).toContain('set-cookie names [] in the sandbox, [backend_route] at the target')
    expect(text).not.toContain('x-served-by')
  })

  it('reports per operation what differs, and nothing else', async () => {
    const sandbox = await startTestServer()
    try {
      const result = await diffBackends({ sandboxUrl: sandbox.url, targetUrl: backend.url })
      expect(Object.fromEntries(differingOperations(result))).toEqual(
        Object.fromEntries(Object.entries(PLANTED_DIFFERENCES).map(([id, kind]) => [id, [kind]])),
      )
    } finally {
      await sandbox.close()
    }
  })

  it('finds nothing between two sandboxes, and exits with 0', async () => {
    const other = await startTestServer()
    try {
      const run = runCli(['diff', '--target', other.url])
      expect(await run.exited).toBe(0)
      expect(run.stdout()).toContain('No difference in status, body shape or headers.')
    } finally {
      await other.close()
    }
  })

  it('sends the examples your operations declare too (--operations), and finds nothing', async () => {
    const file = fileURLToPath(new URL('../../examples/operations/index.mjs', import.meta.url))
    const other = await startTestServer({ operations: hostScreens(operationKit) })
    try {
      const report = join(folder, 'operations.md')
      const run = runCli(['diff', '--target', other.url, '--operations', file, '--report', report])
      expect(await run.exited).toBe(0)
      expect(run.stdout()).toContain('No difference in status, body shape or headers.')
      expect(readFileSync(report, 'utf8')).toMatch(/Same in both: .*listHostBookings/)
    } finally {
      await other.close()
    }
  })

  it('leaves out what could change the target, unless asked, and says whose sign-in failed', async () => {
    const sandbox = await startTestServer()
    const target = await startTestServer()
    try {
      const result = await diffBackends({
        sandboxUrl: sandbox.url,
        targetUrl: target.url,
        refreshTokens: { host: 'rt_host.not-this-one' },
      })
      expect([...new Set(result.leftOut.map((testCase) => testCase.operationId))].sort()).toEqual(
        expect.arrayContaining(['completeIdpSignIn', 'createCheckoutSession', 'testRefundWebhook']),
      )
      expect(result.leftOut.some((testCase) => testCase.request.url.includes('dryRun=maybe'))).toBe(
        true,
      )
      // At the target: sign-ins (refresh), reads and dry runs only.
      const writes = target.sandbox.journal
        .list()
        .filter((entry) => entry.method !== 'GET' && entry.operationId !== 'refreshToken')
      expect(writes.length).toBeGreaterThan(50)
      expect(writes.filter((entry) => entry.dryRun !== true)).toEqual([])
      expect(result.signInRefused).toEqual(['host'])

      const everything = await diffBackends({
        sandboxUrl: sandbox.url,
        targetUrl: target.url,
        includeWrites: true,
      })
      expect(everything.leftOut).toEqual([])
      expect(everything.cases).toBe(result.cases + result.leftOut.length)
      expect(everything.signInRefused).toEqual([])
      const operations = target.sandbox.journal.list().map((entry) => entry.operationId)
      expect(operations).toContain('createCheckoutSession')
    } finally {
      await Promise.all([sandbox.close(), target.close()])
    }
  })

  it('sends the examples of a project folder too, with --examples', async () => {
    const examples = mkdtempSync(join(folder, 'examples-'))
    const source = fileURLToPath(
      new URL('../../spec/examples/getAccountStatus.json', import.meta.url),
    )
    copyFileSync(source, join(examples, 'getAccountStatus.json'))
    const count = Object.keys(JSON.parse(readFileSync(source, 'utf8')).examples).length
    const report = join(folder, 'with-examples.md')
    const plain = runCli(['diff', '--target', backend.url])
    const run = runCli([
      'diff',
      '--target',
      backend.url,
      '--examples',
      examples,
      '--report',
      report,
    ])
    expect([await plain.exited, await run.exited]).toEqual([1, 1])
    const sent = (output: string) => Number(/^Sent (\d+) requests/.exec(output)?.[1])
    expect(sent(run.stdout())).toBe(sent(plain.stdout()) + count)
    expect(readFileSync(report, 'utf8')).toMatch(/- getAccountStatus\/\w+ \(your example\): body:/)

    writeFileSync(join(examples, 'broken.json'), '{"examples": 1}')
    const broken = runCli(['diff', '--target', backend.url, '--examples', examples])
    expect(await broken.exited).toBe(2)
    expect(broken.stderr()).toMatch(
      new RegExp(`^platform-sandbox: ${join(examples, 'broken.json')}: not an examples file`),
    )
  })

  it('refuses a refresh token for a persona it does not have, with exit code 2', async () => {
    const run = runCli(['diff', '--target', backend.url, '--refresh-token', 'nobody=rt_x'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(
      /^platform-sandbox: --refresh-token: no persona "nobody" \(one of admin, /,
    )
  })

  it('refuses a target that is not http(s), with one line and exit code 2', async () => {
    const run = runCli(['diff', '--target', 'ftp://127.0.0.1/'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe(
      'platform-sandbox: target "ftp://127.0.0.1/" is not an http(s) URL (protocol ftp:)\n',
    )
  })

  it('says with one line and exit code 2, not 1, that the target cannot be reached', async () => {
    const target = `http://127.0.0.1:${freePortSync()}`
    const report = join(folder, 'unreachable.md')
    const run = runCli(['diff', '--target', target, '--report', report])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe(`platform-sandbox: cannot reach ${target} (ECONNREFUSED)\n`)
    expect(run.stdout()).toBe('')
    expect(existsSync(report)).toBe(false)
  })

  it('says how far it got when the target stops answering mid-run, and reports nothing', async () => {
    let answered = 0
    const target = createServer((_request, response) => {
      answered += 1
      // After the third answer, nothing listens: the fourth request is refused.
      if (answered === 3) target.close()
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' })
      response.end('{}')
    })
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
    const report = join(folder, 'mid-run.md')
    const run = runCli(['diff', '--target', url, '--report', report])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe(
      `platform-sandbox: cannot reach ${url} (ECONNREFUSED) after it answered 3 requests; the comparison is incomplete, nothing reported\n`,
    )
    expect(run.stdout()).toBe('')
    expect(existsSync(report)).toBe(false)
  })
})
