/**
 * The control table is the one declaration of `/__sandbox`: the merged document names the
 * same paths and methods as the core's rows and the server's, with the same access. The server's
 * rows are routed by its sandbox with the core's; the in-process runtimes have none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlRoutes } from '../mocks/core/index.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { buildMergedDocument } from '../scripts/spec/build-document.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { type ServerRoute, serverRoutes } from './control-routes.ts'

const merged = await buildMergedDocument()
/** The server's control table: the core's rows and its own. */
const allControlRoutes: readonly ServerRoute[] = [...controlRoutes, ...serverRoutes]

const documented = Object.entries(merged.paths)
  .filter(([path]) => path.startsWith('/__sandbox'))
  .flatMap(([path, item]) =>
    Object.entries(item as Record<string, { 'x-sandbox-auth'?: string; responses: object }>).map(
      ([method, operation]) => ({ path, method: method.toUpperCase(), operation }),
    ),
  )

describe('the control table and the merged document', () => {
  it('name the same routes: every route of the table documented, nothing else', () => {
    const table = allControlRoutes
      .filter((route) => !route.asset && !route.mcp)
      .map((route) => `${route.method} ${route.path}`)
      .sort()
    expect(documented.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(table)
  })

  it('agree on who may call each route: only public ones are open under a control token', () => {
    for (const route of allControlRoutes.filter(
      (candidate) => !candidate.asset && !candidate.mcp,
    )) {
      const { operation } = documented.find(
        ({ method, path }) => method === route.method && path === route.path,
      )!
      const label = `${route.method} ${route.path}`
      expect('401' in operation.responses, label).toBe(route.access === 'control')
    }
  })

  it('document the 403 of a page of another site on every route that changes state', () => {
    for (const { method, path, operation } of documented.filter(
      (route) => route.method !== 'GET',
    )) {
      const refusal = (operation.responses as Record<string, { description?: string }>)['403']
      expect(refusal?.description, `${method} ${path}`).toMatch(
        /`Origin` is a page of another site/,
      )
    }
  })
})

describe("the server's rows", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it("are routed with the core's by the server: another method is a 405", async () => {
    const page = await server.request('/__sandbox/docs')
    expect(page.status).toBe(200)
    for (const path of ['/__sandbox/', '/__sandbox/docs', '/__sandbox/events']) {
      const refused = await server.request(path, { method: 'POST', body: {} })
      expect([refused.status, refused.headers.allow], path).toEqual([405, 'GET, HEAD, OPTIONS'])
      expect(refused.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' })
    }
  })

  it('are answered 404 by a sandbox they reach, as the server answers them before it', async () => {
    const sandbox = createSandbox({ controlRoutes: serverRoutes })
    const events = await sandbox.handle({ method: 'GET', url: '/__sandbox/events', headers: {} })
    expect([events.status, events.body]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'Cannot GET /__sandbox/events' },
    ])
    const mcp = await sandbox.handle({ method: 'PUT', url: '/__sandbox/mcp', headers: {} })
    expect([mcp.status, mcp.headers.allow]).toEqual([405, 'POST, GET, DELETE, HEAD, OPTIONS'])
  })

  it('are not in the in-process runtimes: their paths are unknown there', async () => {
    const sandbox = createSandbox()
    for (const [method, url] of [
      ['GET', '/__sandbox/'],
      ['POST', '/__sandbox/'],
      ['OPTIONS', '/__sandbox/docs'],
      ['GET', '/__sandbox/events'],
      ['PUT', '/__sandbox/mcp'],
    ] as const) {
      const answer = await sandbox.handle({ method, url, headers: {} })
      expect([answer.status, answer.headers.allow], `${method} ${url}`).toEqual([404, undefined])
      expect(answer.body).toMatchObject({ message: `Cannot ${method} ${url}` })
    }
  })
})
