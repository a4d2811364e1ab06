import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { createTestClient } from '../test-support/server/test-server.ts'
import { createSandboxMiddleware, type SandboxMiddleware } from './app.ts'

/** A user's own dev server: its routes, and the sandbox under `/api`. */
async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
    })
  })
}

describe('mounted under a prefix in an Express app', () => {
  let server: Server
  let sandbox: SandboxMiddleware
  let client: ReturnType<typeof createTestClient>

  beforeAll(async () => {
    const app = express()
    app.get('/', (_req, res) => {
      res.type('html').send('<h1>my app</h1>')
    })
    app.use('/api/auth', (_req, res, next) => {
      res.setHeader('set-cookie', ['app_cookie=1; Path=/'])
      next()
    })
    sandbox = createSandboxMiddleware({ quiet: true })
    app.use('/api', sandbox)
    app.get('/after', (_req, res) => {
      res.json({ route: 'after' })
    })
    const started = await listen(app)
    server = started.server
    client = createTestClient(`${started.url}/`)
  })
  afterAll(() => {
    client.agent.destroy()
    server.close()
  })

  it('serves the control API under the prefix', async () => {
    const response = await client.request('/api/__sandbox/health')
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ status: 'ok', scenario: 'default' })
  })

  it('runs operations under the prefix, with real writes', async () => {
    const refresh = await client.request<{ accessToken: string }>('/api/auth/refresh?dryRun=true', {
      body: { refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' },
    })
    expect(refresh.status).toBe(200)
    const declined = await client.request(`/api/bookings/${anchors.bookings.pending}/decline`, {
      headers: { authorization: `Bearer ${refresh.body.accessToken}` },
      session: 'mounted',
      body: {},
    })
    expect(declined.status).toBe(201)
    const store = await sandbox.sandbox.store('mounted')
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
  })

  it('keeps the cookies the app set before the sandbox added its own', async () => {
    const response = await client.request('/api/auth/idp/complete', { body: { code: 'idp_guest' } })
    expect(response.status).toBe(201)
    expect(response.headers['set-cookie']).toEqual([
      'app_cookie=1; Path=/',
      expect.stringMatching(/^refresh_token=rt_guest\./),
    ])
  })

  it('answers 404 with an ApiErrorResponseDto for unknown paths under the prefix', async () => {
    const response = await client.request('/api/nothing')
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ message: 'Cannot GET /nothing', code: 'NOT_FOUND' })
  })

  it('leaves the app’s own routes alone', async () => {
    expect((await client.request('/')).text).toBe('<h1>my app</h1>')
    expect((await client.request('/after')).body).toEqual({ route: 'after' })
  })
})

describe('mounted with fallthrough beside other routes', () => {
  let server: Server
  let client: ReturnType<typeof createTestClient>

  beforeAll(async () => {
    const app = express()
    app.use(express.json())
    app.use(createSandboxMiddleware({ quiet: true, fallthrough: true }))
    app.get('/payprov/other', (_req, res) => {
      res.json({ route: 'app' })
    })
    app.post('/echo', (req, res) => {
      res.json(req.body)
    })
    const started = await listen(app)
    server = started.server
    client = createTestClient(started.url)
  })
  afterAll(() => {
    client.agent.destroy()
    server.close()
  })

  it('passes requests the sandbox does not know to the next route', async () => {
    expect((await client.request('/payprov/other')).body).toEqual({ route: 'app' })
    expect((await client.request('/echo', { body: { a: 1 } })).body).toEqual({ a: 1 })
  })

  it('still answers operations and the control API', async () => {
    expect((await client.request('/__sandbox/health')).status).toBe(200)
    expect(
      (await client.request('/users/usr_guest/follow?dryRun=true', { as: 'host', body: {} }))
        .status,
    ).toBe(201)
  })

  it('accepts a body that express.json() already parsed', async () => {
    const response = await client.request('/users/usr_guest/follow?dryRun=true', {
      as: 'host',
      body: { unexpected: true },
    })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'BAD_REQUEST' })
  })
})
