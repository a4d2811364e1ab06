import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module script without types
import { buildDashboard, dashboardModule } from '../../scripts/build-dashboard.mjs'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** Reads server-sent events until `count` journal entries have arrived. */
function readEvents(path: string, count: number): Promise<{ entries: any[]; type: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, server.url), (res) => {
      const entries: any[] = []
      let buffer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffer += chunk
        for (const match of buffer.matchAll(/event: requests\ndata: (.*)\n\n/g)) {
          entries.push(...JSON.parse(match[1]!))
        }
        buffer = buffer.replace(/event: requests\ndata: .*\n\n/g, '')
        if (entries.length >= count) {
          req.destroy()
          resolve({ entries, type: String(res.headers['content-type']) })
        }
      })
    })
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
    })
    req.end()
  })
}

describe('console pages', () => {
  it('serves the dashboard page and its script', async () => {
    const page = await server.request('/__sandbox/')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.text).toContain('<script type="module" src="dashboard.js"></script>')
    expect(page.text).not.toMatch(/https?:\/\//)
    const script = await server.request('/__sandbox/dashboard.js')
    expect(script.status).toBe(200)
    expect(script.text).toContain('Fault rules')
  })

  it('redirects /__sandbox to the dashboard', async () => {
    const response = await server.request('/__sandbox')
    expect(response.status).toBe(308)
    expect(response.headers.location).toBe('__sandbox/')
  })

  it('serves the API reference page and Scalar from the installed package', async () => {
    const page = await server.request('/__sandbox/docs')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<script src="docs/scalar.js"></script>')
    const script = await server.request('/__sandbox/docs/scalar.js')
    expect(script.status).toBe(200)
    expect(script.text).toContain('createApiReference')
    expect(script.text).not.toContain('url(https://fonts.scalar.com/')
  })

  it('streams the session journal as server-sent events', async () => {
    const events = readEvents('/__sandbox/events?session=streamed', 2)
    await new Promise((resolve) => setTimeout(resolve, 50))
    await server.request('/auth/refresh?dryRun=true', { session: 'other', body: {} })
    const refreshed = await server.request('/auth/refresh?dryRun=true', {
      session: 'streamed',
      body: {},
    })
    await server.request('/nowhere', { session: 'streamed' })
    const { entries, type } = await events
    expect(type).toBe('text/event-stream; charset=utf-8')
    expect(entries.map((entry) => [entry.session, entry.path, entry.status])).toEqual([
      ['streamed', '/auth/refresh', refreshed.status],
      ['streamed', '/nowhere', 404],
    ])
  })

  it('refuses a stream of an invalid session', async () => {
    const response = await server.request('/__sandbox/events?session=no%20spaces')
    expect(response.status).toBe(400)
  })
})

describe('dashboard bundle', () => {
  it('is up to date with its sources (npm run build:dashboard)', async () => {
    expect(readFileSync(dashboardModule, 'utf8')).toBe(await buildDashboard())
  })
})
