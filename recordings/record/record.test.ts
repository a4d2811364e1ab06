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
import { getPersona } from '../../fixtures/personas.ts'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import {
  type FakeBackend,
  startFakeBackend,
} from '../../test-support/fake-backend/start-fake-backend.ts'
import { runCli } from '../../test-support/recordings/test-run-cli.ts'
import { createTestClient } from '../../test-support/server/test-server.ts'
import { createHarFile } from './har-file.ts'
import { type RecordProxyOptions, startRecordProxy } from './record-proxy.ts'

const host = getPersona('host')

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

async function recordSome(name: string, more: Partial<RecordProxyOptions> = {}) {
  const out = join(folder, name)
  const file = createHarFile(out)
  const proxy = await startRecordProxy({ target: new URL(backend.url), file, ...more })
  const client = createTestClient(proxy.url)
  const session = `rec-${name}`
  const refreshed = await client.request<{ accessToken: string }>('/auth/refresh?dryRun=true', {
    body: { refreshToken: host.refreshToken },
    session,
  })
  const token = refreshed.body.accessToken
  const status = await client.request('/payprov/account-status', {
    headers: { authorization: `Bearer ${token}` },
    session,
  })
  const signIn = await client.request('/auth/idp/complete', {
    body: { code: host.idpCode },
    session,
  })
  client.agent.destroy()
  await proxy.close()
  const text = readFileSync(out, 'utf8')
  return { token, refreshed, status, signIn, text, har: JSON.parse(text) as Har }
}

describe('record', () => {
  it('forwards each request unchanged and gives the answer back unchanged', async () => {
    const { refreshed, status, signIn } = await recordSome('forward.har')
    expect(refreshed.status).toBe(200)
    expect(status.status).toBe(200)
    // The fake backend's own answer: its renamed field and its extra header come through.
    expect(status.body).toMatchObject({ payoutsEnabled: true })
    expect(status.headers['x-served-by']).toBe('fake-backend')
    expect(signIn.status).toBe(201)
    expect(signIn.headers['set-cookie']?.[0]).toContain(`refresh_token=${host.refreshToken}`)

    const direct = createTestClient(backend.url)
    const journal = await direct.request<Array<{ method: string; path: string; query: object }>>(
      '/__sandbox/requests',
      { session: 'rec-forward.har' },
    )
    direct.agent.destroy()
    expect(journal.body.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
      { method: 'POST', path: '/auth/refresh', query: { dryRun: 'true' } },
      { method: 'GET', path: '/payprov/account-status', query: {} },
      { method: 'POST', path: '/auth/idp/complete', query: {} },
    ])
  })

  it('writes each exchange as HAR 1.2 with secrets redacted', async () => {
    const { har, text, token } = await recordSome('redacted.har')
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries).toHaveLength(3)
    const [refresh, status, signIn] = har.log.entries
    expect(refresh?.request.url).toBe(`${backend.url}/auth/refresh?dryRun=true`)
    expect(JSON.parse(refresh!.request.postData!.text!)).toEqual({ refreshToken: '[REDACTED]' })
    expect(JSON.parse(refresh!.response.content.text!)).toEqual({ accessToken: '[REDACTED]' })
    const authorization = status?.request.headers.find((h) => h.name === 'authorization')
    expect(authorization?.value).toBe('Bearer [REDACTED sub=usr_host]')
    expect(JSON.parse(status!.response.content.text!)).toMatchObject({ payoutsEnabled: true })
    const cookie = signIn?.response.headers.find((h) => h.name === 'set-cookie')
    expect(cookie?.value).toBe('refresh_token=[REDACTED]; Path=/; HttpOnly; SameSite=Lax')
    expect(text).not.toContain(token)
    expect(text).not.toContain(host.refreshToken)
  })

  it('keeps secrets with redact: false, and redacts more on request', async () => {
    const kept = await recordSome('kept.har', { redact: false })
    expect(kept.text).toContain(kept.token)
    const more = await recordSome('more.har', {
      redact: { extra: ['X-Served-By', '/requirements/eventually_due'] },
    })
    const status = more.har.log.entries[1]!
    expect(status.response.headers.find((h) => h.name === 'x-served-by')?.value).toBe('[REDACTED]')
    expect(JSON.parse(status.response.content.text!).requirements.eventually_due).toBe('[REDACTED]')
  })

  it('answers 502 and writes nothing when the target is down, and health still answers', async () => {
    const out = join(folder, 'down.har')
    const proxy = await startRecordProxy({
      target: new URL('http://127.0.0.1:9'),
      file: createHarFile(out),
    })
    const client = createTestClient(proxy.url)
    const answer = await client.request('/payprov/account-status')
    expect(answer.status).toBe(502)
    expect(answer.body).toMatchObject({ code: 'BAD_GATEWAY' })
    expect((answer.body as { message: string }).message).toContain('http://127.0.0.1:9')
    const health = await client.request('/__sandbox/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'ok', mode: 'record' })
    client.agent.destroy()
    await proxy.close()
    expect(existsSync(out)).toBe(false)
  })
})

describe('record, when the target does not answer in time', () => {
  it('answers 502 after the timeout and writes nothing', async () => {
    const silent = createServer(() => {
      // Accepts the request and never answers.
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const out = join(folder, 'timeout.har')
    const proxy = await startRecordProxy({
      target: new URL(`http://127.0.0.1:${port}`),
      file: createHarFile(out),
      timeoutMs: 200,
    })
    const client = createTestClient(proxy.url)
    try {
      const answer = await client.request('/payprov/account-status')
      expect(answer.status).toBe(502)
      expect(answer.body).toEqual({
        message: `Failed to reach the target http://127.0.0.1:${port}: no answer within 200 ms`,
        code: 'BAD_GATEWAY',
      })
    } finally {
      client.agent.destroy()
      await proxy.close()
      silent.closeAllConnections()
      silent.close()
    }
    expect(existsSync(out)).toBe(false)
  })
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
  const cli = fileURLToPath(new URL('../../server/cli.ts', import.meta.url))
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
