import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'
import type { SandboxCoreOptions } from './sandbox-types.ts'

/** A body-less `POST /__sandbox/reset` with these headers, answered by a fresh sandbox. */
async function resetStatus(headers: Record<string, string>, options: SandboxCoreOptions = {}) {
  const sandbox = createSandbox(options)
  const response = await sandbox.handle({ method: 'POST', url: '/__sandbox/reset', headers })
  return response.status
}

describe('state-changing control calls from a page', () => {
  it("take the page's own origin: the Host's host and port, whatever the scheme", async () => {
    const host = 'sandbox.example.com'
    expect(await resetStatus({ host, origin: `https://${host}` })).toBe(200)
    expect(await resetStatus({ host, origin: `http://${host}` })).toBe(200)
    expect(await resetStatus({ host: `${host}:443`, origin: `https://${host}` })).toBe(200)
    expect(await resetStatus({ host: `${host}:8443`, origin: `https://${host}:8443` })).toBe(200)
    expect(await resetStatus({ host: `${host}:8443`, origin: `https://${host}` })).toBe(403)
    expect(await resetStatus({ host, origin: `https://${host}:8443` })).toBe(403)
    expect(await resetStatus({ host, origin: 'https://app.example.com' })).toBe(403)
  })

  it('are not fooled by an Origin or a Host that is not a plain host', async () => {
    const host = 'sandbox.example.com'
    expect(await resetStatus({ host, origin: `https://${host}/path` })).toBe(403)
    expect(await resetStatus({ host, origin: `https://evil.example@${host}` })).toBe(403)
    expect(await resetStatus({ host: `evil.example@${host}`, origin: `https://${host}` })).toBe(403)
    expect(await resetStatus({ host: `${host}/x`, origin: `https://${host}` })).toBe(403)
  })

  it('take the local development origins by default, and the origins given instead', async () => {
    expect(await resetStatus({ origin: 'http://localhost:5173' })).toBe(200)
    expect(await resetStatus({ origin: 'http://127.0.0.1:3000' })).toBe(200)
    const controlOrigins = ['https://*.example.com']
    expect(await resetStatus({ origin: 'https://qa.example.com' }, { controlOrigins })).toBe(200)
    expect(await resetStatus({ origin: 'http://localhost:5173' }, { controlOrigins })).toBe(403)
  })

  it('refuse every origin but the own one when told *, and always Origin: null', async () => {
    expect(await resetStatus({ origin: 'https://evil.example' }, { controlOrigins: ['*'] })).toBe(
      403,
    )
    expect(await resetStatus({ host: 'localhost:4010', origin: 'null' })).toBe(403)
    expect(await resetStatus({ origin: 'null' }, { controlOrigins: ['null'] })).toBe(403)
  })

  it('are refused on any path and method under /__sandbox, before the token, a 404 or a 405', async () => {
    const sandbox = createSandbox({ controlToken: 'control-token-1234' })
    const headers = { origin: 'https://evil.example' }
    for (const [method, url] of [
      ['POST', '/__sandbox/nowhere'],
      ['PUT', '/__sandbox/reset'],
      ['DELETE', '/__sandbox/faults'],
      ['POST', '/__sandbox/clock'],
    ] as const) {
      const response = await sandbox.handle({ method, url, headers })
      expect(response.status, `${method} ${url}`).toBe(403)
    }
    expect(sandbox.sessionIds()).toEqual([])
  })

  it('leave reads, OPTIONS and calls without Origin to the rules they had', async () => {
    const sandbox = createSandbox()
    const origin = 'https://evil.example'
    const get = await sandbox.handle({
      method: 'GET',
      url: '/__sandbox/personas',
      headers: { origin },
    })
    expect(get.status).toBe(200)
    const head = await sandbox.handle({
      method: 'HEAD',
      url: '/__sandbox/health',
      headers: { origin },
    })
    expect(head.status).toBe(200)
    const options = await sandbox.handle({
      method: 'OPTIONS',
      url: '/__sandbox/reset',
      headers: { origin },
    })
    expect(options.status).toBe(204)
    expect(await resetStatus({})).toBe(200)
  })
})
