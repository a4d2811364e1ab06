import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE, SESSION_HEADER } from '../mocks/core/index.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

let server: TestServer
const lines: string[] = []

beforeAll(async () => {
  server = await startTestServer({ quiet: false, logFormat: 'json', log: (l) => lines.push(l) })
})
afterAll(() => server.close())

describe('one session rule for the core and the request log', () => {
  it('serves and logs an empty header with a session cookie as the cookie session', async () => {
    lines.length = 0
    const response = await server.request('/auth/refresh?dryRun=true', {
      headers: { [SESSION_HEADER]: '', cookie: `${SESSION_COOKIE}=abc` },
      body: { refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' },
    })
    expect(response.status).toBe(200)
    for (let i = 0; i < 50 && lines.length < 1; i++) await new Promise((r) => setTimeout(r, 10))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ session: 'abc', path: '/auth/refresh' })
    const inCore = server.sandbox.journal.list('abc')
    expect(inCore.map((entry) => entry.path)).toEqual(['/auth/refresh'])
    expect(server.sandbox.journal.list('default')).toEqual([])
    expect(server.sandbox.sessionIds()).toContain('abc')
  })
})
