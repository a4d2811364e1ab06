import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSandbox, type SandboxOptions } from '../../sandbox.ts'
import { withPageOrigin } from './worker-handlers.ts'

afterEach(() => vi.unstubAllGlobals())

const resetFrom = (origin: string, host: string) =>
  createSandbox(withPageOrigin({}))
    .handle({ method: 'POST', url: '/__sandbox/reset', headers: { origin, host } })
    .then((response) => response.status)

describe("a page's sandbox", () => {
  it("takes control calls from the page's own origin, whatever host baseUrl names", async () => {
    vi.stubGlobal('location', { origin: 'https://app.example.com' })
    expect(await resetFrom('https://app.example.com', 'api.example.com')).toBe(200)
    expect(await resetFrom('https://evil.example', 'api.example.com')).toBe(403)
  })

  it('keeps the local development origins and the ones given', () => {
    vi.stubGlobal('location', { origin: 'https://app.example.com' })
    expect(withPageOrigin({ controlOrigins: ['https://qa.example.com'] }).controlOrigins).toEqual([
      'https://qa.example.com',
      'https://app.example.com',
    ])
    const none: SandboxOptions = {}
    expect(withPageOrigin(none).controlOrigins).toContain('http://localhost:*')
  })
})
