/**
 * Every OpenAPI link of the document the server serves leads somewhere: its runtime
 * expressions (`$response.body#/name`, `$request.header.x-sandbox-session`), evaluated on a
 * real answer of its operation, make a call of its target operation that succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../test-support/server/test-server.ts'

type Json = Record<string, unknown>

interface Link {
  operationId: string
  parameters?: Record<string, unknown>
  requestBody?: unknown
}

interface Exchange {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown }
  response: TestResponse
}

/** A call of each operation that answers with a link, as the link's source. */
const sources: Record<string, Exchange['request']> = {
  saveSandboxSnapshot: {
    method: 'POST',
    path: '/__sandbox/snapshots',
    headers: { 'x-sandbox-session': 'links' },
    body: { name: 'linked', replace: true },
  },
  addSandboxFault: {
    method: 'POST',
    path: '/__sandbox/faults',
    headers: { 'x-sandbox-session': 'links' },
    body: { path: '/payprov/account-status', status: 500 },
  },
  resetSandbox: {
    method: 'POST',
    path: '/__sandbox/reset',
    headers: { 'x-sandbox-session': 'links' },
    body: {},
  },
  addSandboxScenario: {
    method: 'POST',
    path: '/__sandbox/scenarios',
    headers: {},
    body: { name: 'linked-scenario', extends: 'empty' },
  },
  getSandboxHealth: { method: 'GET', path: '/__sandbox/health', headers: {} },
}

/** The value a JSON pointer (RFC 6901) names in `value`. */
function pointer(value: unknown, path: string): unknown {
  if (path === '') return value
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], value)
}

/** Evaluates an OpenAPI runtime expression (or an object holding some) on an exchange. */
function evaluate(expression: unknown, exchange: Exchange): unknown {
  if (typeof expression === 'object' && expression !== null) {
    return Object.fromEntries(
      Object.entries(expression).map(([key, inner]) => [key, evaluate(inner, exchange)]),
    )
  }
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression
  if (expression === '$statusCode') return exchange.response.status
  if (expression === '$method') return exchange.request.method
  const match = /^\$(request|response)\.(header|query|path|body)(?:\.(.+)|#(.*))?$/.exec(expression)
  if (!match) throw new Error(`Not a runtime expression this test knows: ${expression}`)
  const [, side, part, name, path] = match
  if (part === 'body') {
    const body = side === 'request' ? exchange.request.body : exchange.response.body
    return pointer(body, path ?? '')
  }
  if (part === 'header') {
    const headers = side === 'request' ? exchange.request.headers : exchange.response.headers
    return headers[name!.toLowerCase()]
  }
  throw new Error(`This test does not evaluate ${expression}`)
}

let server: TestServer
let document: { paths: Record<string, Record<string, Json>>; components: Json }

beforeAll(async () => {
  server = await startTestServer()
  document = (await server.request<typeof document>('/__sandbox/openapi.json')).body
})
afterAll(() => server.close())

function operations() {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operation,
    })),
  )
}

function links() {
  return operations().flatMap(({ operation }) =>
    Object.entries((operation.responses as Record<string, Json>) ?? {}).flatMap(
      ([status, response]) =>
        Object.entries((response.links as Record<string, Link>) ?? {}).map(([name, link]) => ({
          source: operation.operationId as string,
          status,
          name,
          link,
        })),
    ),
  )
}

/** Where each parameter of an operation goes, by name (`$ref`s resolved). */
function parameterPlaces(operation: Json): Map<string, string> {
  const parameters = (operation.parameters as Json[] | undefined) ?? []
  return new Map(
    parameters.map((parameter) => {
      const resolved =
        typeof parameter.$ref === 'string'
          ? ((document.components.parameters as Json)[parameter.$ref.split('/').pop()!] as Json)
          : parameter
      return [resolved.name as string, resolved.in as string]
    }),
  )
}

describe('the links of the merged document', () => {
  it('join snapshots, fault rules, scenarios and sessions to the calls that take them', () => {
    const named = links().map(({ source, name, link }) => `${source} ${name} ${link.operationId}`)
    expect(named).toEqual(
      expect.arrayContaining([
        'saveSandboxSnapshot exportSnapshot exportSandboxSnapshot',
        'saveSandboxSnapshot deleteSnapshot deleteSandboxSnapshot',
        'saveSandboxSnapshot resetToSnapshot resetSandbox',
        'addSandboxFault removeFault removeSandboxFault',
        'resetSandbox requestsOfSession listSandboxRequests',
      ]),
    )
    // Every link starts from an operation this test can call.
    expect(links().filter(({ source }) => !(source in sources))).toEqual([])
  })

  it('lead, evaluated on a real answer, to a call of their target that succeeds', async () => {
    const all = links()
    expect(all.length).toBeGreaterThan(0)
    for (const { source, status, name, link } of all) {
      const label = `${source} -> ${name}`
      const request = sources[source]!
      const response = await server.request(request.path, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      })
      expect(String(response.status), label).toBe(status)
      const exchange: Exchange = { request, response }

      const target = operations().find(
        ({ operation }) => operation.operationId === link.operationId,
      )
      expect(target, `${label}: the target operation exists`).toBeDefined()
      const places = parameterPlaces(target!.operation)
      let path = target!.path
      const query = new URLSearchParams()
      const headers: Record<string, string> = {}
      for (const [key, expression] of Object.entries(link.parameters ?? {})) {
        const [qualifier, bare] = key.includes('.') ? key.split(/\.(.+)/) : [undefined, key]
        const place = qualifier ?? places.get(bare!)
        expect(places.get(bare!), `${label}: ${key} is a parameter of the target`).toBe(place)
        const value = evaluate(expression, exchange)
        expect(value, `${label}: ${key} = ${String(expression)}`).toBeDefined()
        if (place === 'path') path = path.replace(`{${bare}}`, encodeURIComponent(String(value)))
        else if (place === 'query') query.set(bare!, String(value))
        else headers[bare!] = String(value)
      }
      const body = link.requestBody === undefined ? undefined : evaluate(link.requestBody, exchange)
      const url = query.size > 0 ? `${path}?${query}` : path
      const answer = await server.request(url, {
        method: target!.method,
        headers,
        ...(body === undefined ? {} : { body }),
      })
      expect(answer.status, `${label}: ${target!.method} ${url} ${answer.text}`).toBeLessThan(300)
    }
  })

  it('remove the very rule a fault rule names, in its session', async () => {
    const added = await server.request<{ id: string }>('/__sandbox/faults', {
      method: 'POST',
      session: 'links-rule',
      body: { path: '/payprov/account-status', status: 500 },
    })
    const link = links().find(({ name }) => name === 'removeFault')!.link
    const exchange: Exchange = {
      request: {
        method: 'POST',
        path: '/__sandbox/faults',
        headers: { 'x-sandbox-session': 'links-rule' },
      },
      response: added,
    }
    const id = evaluate(link.parameters!.id, exchange) as string
    const session = evaluate(link.parameters!['header.x-sandbox-session'], exchange) as string
    expect([id, session]).toEqual([added.body.id, 'links-rule'])
    const removed = await server.request(`/__sandbox/faults/${id}`, { method: 'DELETE', session })
    expect(removed.status).toBe(204)
    expect((await server.request('/__sandbox/faults', { session })).body).toEqual([])
  })
})
