import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, startTestServer, type TestServer } from '../server/test-server.ts'
import { type FakeBackend, startFakeBackend } from './start-fake-backend.ts'

describe('the fake backend', () => {
  let backend: FakeBackend
  let sandbox: TestServer
  beforeAll(async () => {
    ;[backend, sandbox] = await Promise.all([startFakeBackend(), startTestServer()])
  })
  afterAll(async () => {
    await Promise.all([backend?.close(), sandbox?.close()])
  })

  it('runs in its own process on a loopback port', () => {
    expect(backend.pid).not.toBe(process.pid)
    expect(backend.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('renames payouts_enabled in getAccountStatus', async () => {
    const fake = createTestClient(backend.url)
    const real = await sandbox.request<Record<string, unknown>>('/payprov/account-status', {
      as: 'host',
    })
    const planted = await fake.request<Record<string, unknown>>('/payprov/account-status', {
      as: 'host',
    })
    expect(real.body).toHaveProperty('payouts_enabled', true)
    expect(planted.body).not.toHaveProperty('payouts_enabled')
    expect(planted.body).toHaveProperty('payoutsEnabled', true)
    expect(planted.headers['x-served-by']).toBe('fake-backend')
    fake.agent.destroy()
  })

  it('answers 422 instead of 409 when the booking is not pending', async () => {
    const fake = createTestClient(backend.url)
    const init = { as: 'host' as const, body: {} }
    const url = '/bookings/bkg_accepted/decline?dryRun=true'
    expect((await sandbox.request(url, init)).status).toBe(409)
    expect((await fake.request(url, init)).status).toBe(422)
    fake.agent.destroy()
  })
})
