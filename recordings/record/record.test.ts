import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Har } from 'har-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPersona } from '../../fixtures/personas.ts'
import {
  type FakeBackend,
  startFakeBackend,
} from '../../test-support/fake-backend/start-fake-backend.ts'
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
