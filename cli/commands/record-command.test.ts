import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { Har } from 'har-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import {
  type FakeBackend,
  startFakeBackend,
} from '../../test-support/fake-backend/start-fake-backend.ts'
import { runCli } from '../../test-support/recordings/test-run-cli.ts'
import { createTestClient } from '../../test-support/server/test-server.ts'

let backend: FakeBackend
let folder: string
beforeAll(async () => {
  backend = await startFakeBackend()
  folder = mkdtempSync(join(tmpdir(), 'sandbox-record-'))
})
afterAll(async () => {
  await backend?.close()
  rmSync(folder, { recursive: true, force: true })
})

/** `record` of `target` into `out` for one request, stopped by SIGTERM: its last line. */
async function recordOneRequest(target: string, out: string): Promise<string> {
  const run = runCli(['record', '--target', target, '--port', '0', '--out', out])
  const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/)
  const client = createTestClient(url!)
  await client.request('/payprov/account-status')
  client.agent.destroy()
  run.child.kill('SIGTERM')
  expect(await run.exited).toBe(0)
  return run.stdout().trim().split('\n').at(-1)!
}

describe('platform-sandbox record', () => {
  const cli = fileURLToPath(new URL('../cli.ts', import.meta.url))
  let child: ChildProcess | undefined
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL')
  })

  it('records through the command line and stops cleanly on SIGTERM', async () => {
    const out = join(folder, 'cli.har')
    child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, 'record', '--target', backend.url, '--port', '0', '--out', out],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const lines = createInterface({ input: child.stdout! })
    const first = await new Promise<string>((resolve) => lines.once('line', resolve))
    const url = /listening on (http:\/\/\S+)/.exec(first)?.[1]
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const client = createTestClient(url!)
    expect((await client.request('/payprov/account-status', { as: 'host' })).status).toBe(200)
    client.agent.destroy()
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const har = JSON.parse(readFileSync(out, 'utf8')) as Har
    expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
      '/auth/refresh',
      '/payprov/account-status',
    ])
  })
  it('says in one line, as the server does, with exit code 1, that its port is taken', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = String((taken.address() as AddressInfo).port)
    const out = join(folder, 'port-taken.har')
    try {
      const record = runCli(['record', '--target', backend.url, '--port', port, '--out', out])
      const server = runCli(['--port', port])
      expect([await record.exited, await server.exited]).toEqual([1, 1])
      const line = `platform-sandbox: 127.0.0.1:${port} is already in use; choose another port with --port\n`
      expect([record.stderr(), server.stderr()]).toEqual([line, line])
      expect(existsSync(out)).toBe(false)
    } finally {
      taken.close()
    }
  })
  it('takes an empty or blank existing file as a new recording', async () => {
    const [empty, blank] = [join(folder, 'touched.har'), join(folder, 'blank.har')]
    writeFileSync(empty, '')
    writeFileSync(blank, ' \n\t\n')
    const lines = await Promise.all([
      recordOneRequest(backend.url, empty),
      recordOneRequest(backend.url, blank),
    ])
    expect(lines).toEqual([`Recorded 1 exchange in ${empty}.`, `Recorded 1 exchange in ${blank}.`])
    for (const out of [empty, blank]) {
      const har = JSON.parse(readFileSync(out, 'utf8')) as Har
      expect(har.log.entries.map((entry) => entry.response.status)).toEqual([401])
    }
  })

  it('says that nothing was written when no exchange came back, and writes no file', async () => {
    const target = `http://127.0.0.1:${freePortSync()}`
    const out = join(folder, 'down-cli.har')
    expect(await recordOneRequest(target, out)).toBe(
      `Recorded no exchange; nothing written to ${out}.`,
    )
    expect(existsSync(out)).toBe(false)
  })

  it('counts the exchanges of this session when it appends to a recording', async () => {
    const out = join(folder, 'appended.har')
    await recordOneRequest(backend.url, out)
    expect(await recordOneRequest(backend.url, out)).toBe(
      `Recorded 1 exchange in ${out} (2 in all).`,
    )
  })
})
