/**
 * The merged document's control schemas refuse exactly what the control API refuses: for each
 * case, a body, a query, a path parameter or the session header, the schema the document gives
 * it and the sandbox's answer agree (valid and a success, or invalid and a 4xx).
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../mocks/sandbox.ts'
import { buildMergedDocument } from '../scripts/spec/build-document.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020
type Json = Record<string, unknown>

const merged = await buildMergedDocument()
const ajv = new Ajv2020({ strict: false, validateFormats: true })
addFormats(ajv)
ajv.addSchema({
  $id: 'doc',
  components: JSON.parse(
    JSON.stringify(merged.components).replaceAll('"#/components/', '"doc#/components/'),
  ),
} as never)

const operation = (method: string, path: string) =>
  (merged.paths[path] as Record<string, Json>)[method.toLowerCase()]!

/** Whether the document's schema for the JSON body of `method path` accepts `body`. */
function bodyValid(method: string, path: string, body: unknown): boolean {
  const content = (operation(method, path).requestBody as Json).content as Json
  const { $ref } = (content['application/json'] as Json).schema as { $ref: string }
  return ajv.validate({ $ref: $ref.replace('#/', 'doc#/') }, body)
}

type Parameter = { name: string; in: string; schema: Json; $ref?: string }

/** Whether the document's schema of one parameter of `method path` accepts `value`. */
function parameterValid(method: string, path: string, where: string, name: string, value: string) {
  const parameters = (operation(method, path).parameters as Parameter[]).map((parameter) =>
    parameter.$ref
      ? ((merged.components!.parameters as Json)[parameter.$ref.split('/').pop()!] as Parameter)
      : parameter,
  )
  const parameter = parameters.find((p) => p.name === name && p.in === where)
  expect(parameter, `${method} ${path} documents the ${where} parameter ${name}`).toBeDefined()
  return ajv.validate(parameter!.schema, value)
}

const sandbox = createSandbox({ openapiDocument: () => merged })
const SESSION = 'verdicts'

async function call(method: string, url: string, body?: unknown, session = SESSION) {
  return sandbox.handle({
    method,
    url,
    headers: { 'content-type': 'application/json', 'x-sandbox-session': session },
    body: body === undefined ? null : JSON.stringify(body),
  })
}

beforeAll(async () => {
  expect((await call('POST', '/__sandbox/snapshots', { name: 'saved-one' })).status).toBe(201)
})

const bodies: [method: string, path: string, body: unknown][] = [
  ['POST', '/__sandbox/reset', {}],
  ['POST', '/__sandbox/reset', { scenario: 'empty' }],
  ['POST', '/__sandbox/reset', { scenario: 'empty', seed: 3 }],
  ['POST', '/__sandbox/reset', { snapshot: 'saved-one' }],
  ['POST', '/__sandbox/reset', { scenario: '' }],
  ['POST', '/__sandbox/reset', { scenario: 'no such name!' }],
  ['POST', '/__sandbox/reset', { snapshot: 'saved-one', scenario: 'empty' }],
  ['POST', '/__sandbox/reset', { snapshot: 'saved-one', seed: 1 }],
  ['POST', '/__sandbox/reset', { snapshot: '' }],
  ['POST', '/__sandbox/reset', { seed: -1 }],
  ['POST', '/__sandbox/reset', { seed: 1.5 }],
  ['POST', '/__sandbox/reset', { other: 1 }],
  ['POST', '/__sandbox/clock', { now: '2026-06-01T09:00:00.000Z' }],
  ['POST', '/__sandbox/clock', { now: '2026-06-01T09:00:00+02:00' }],
  ['POST', '/__sandbox/clock', { advanceSeconds: -60 }],
  ['POST', '/__sandbox/clock', {}],
  ['POST', '/__sandbox/clock', { now: '2026-06-01T09:00:00Z', advanceSeconds: 1 }],
  ['POST', '/__sandbox/clock', { now: 'yesterday' }],
  ['POST', '/__sandbox/clock', { now: '2026-02-30T09:00:00Z' }],
  ['POST', '/__sandbox/clock', { advanceSeconds: '60' }],
  ['POST', '/__sandbox/clock', { advanceSeconds: 1, extra: true }],
  ['POST', '/__sandbox/clock', { advanceSeconds: -6.15e16 }],
  ['POST', '/__sandbox/clock', { advanceSeconds: 253_402_300_801 }],
  ['POST', '/__sandbox/clock', { now: '1969-12-31T23:59:59Z' }],
  ['POST', '/__sandbox/clock', { now: '1970-01-01T00:00:00Z' }],
  ['POST', '/__sandbox/clock', { now: '9999-12-31T23:59:59.999Z' }],
  ['POST', '/__sandbox/snapshots', { name: 'saved-two' }],
  ['POST', '/__sandbox/snapshots', { name: 'saved-one', replace: true }],
  ['POST', '/__sandbox/snapshots', {}],
  ['POST', '/__sandbox/snapshots', { name: '' }],
  ['POST', '/__sandbox/snapshots', { name: 'with space' }],
  ['POST', '/__sandbox/snapshots', { name: 'x'.repeat(65) }],
  ['POST', '/__sandbox/snapshots', { name: 'fine', replace: 'yes' }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-a', extends: 'empty' }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-b', remove: { bookings: [] } }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-c', extends: '' }],
  ['POST', '/__sandbox/scenarios', { name: 'bad name' }],
  ['POST', '/__sandbox/scenarios', { name: 'default', extends: 'empty' }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-a', extends: 'default' }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-d', add: { nothing: [] } }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-e', seed: -1 }],
  ['POST', '/__sandbox/scenarios', { extends: 'empty' }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-f', other: 1 }],
  ['POST', '/__sandbox/scenarios', { name: 'uploaded-g', description: 'x'.repeat(1_001) }],
  ['POST', '/__sandbox/faults', { path: '/payprov/account-status', status: 500 }],
  ['POST', '/__sandbox/faults', { method: 'post', path: '/bookings/:id/decline', status: 409 }],
  ['POST', '/__sandbox/faults', { path: '/bookings/*/decline', example: 'bookingNotPending' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', delayMs: 10, jitterMs: 5 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 503, retryAfterSeconds: 5 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, persona: 'host' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh/', networkError: true, times: 2 }],
  ['POST', '/__sandbox/faults', { path: 'auth/refresh', status: 500 }],
  ['POST', '/__sandbox/faults', { path: '/no/such/operation', status: 500 }],
  ['POST', '/__sandbox/faults', { method: 'GET', path: '/auth/refresh', status: 500 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, networkError: true }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, example: 'x' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, times: 1, probability: 1 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', delayMs: 1, message: 'slow' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, retryAfterSeconds: 5 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, persona: 'nobody' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', example: 'bookingNotPending' }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 418 }],
  ['POST', '/__sandbox/faults', { id: 'with space', path: '/auth/refresh', status: 500 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, probability: 2 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', delayMs: 60_001 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, extra: 1 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, message: 'x'.repeat(1_001) }],
  [
    'POST',
    '/__sandbox/faults',
    { path: '/auth/refresh', status: 500, details: Array(21).fill('x') },
  ],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, times: 1_000_001 }],
  ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 500, times: 1_000_000 }],
  [
    'POST',
    '/__sandbox/faults',
    { method: 'GETGETGETGETGETGE', path: '/auth/refresh', status: 500 },
  ],
  ['POST', '/__sandbox/faults', { path: `/auth/refresh/${'x'.repeat(1_000)}`, status: 500 }],
]

describe('the document and the control API give every body the same verdict', () => {
  it.each(
    bodies.map(
      ([method, path, body]) =>
        [`${method} ${path}`, JSON.stringify(body), method, path, body] as const,
    ),
  )('%s %s', async (_route, _shown, method, path, body) => {
    const valid = bodyValid(method, path, body)
    const answer = await call(method, path, body)
    expect(
      { refused: answer.status >= 400, status: answer.status },
      JSON.stringify(answer.body),
    ).toMatchObject({ refused: !valid })
  })
})

const parameters: [method: string, url: string, where: string, name: string, value: string][] = [
  ['GET', '/__sandbox/requests?session=qa-1', 'query', 'session', 'qa-1'],
  ['GET', '/__sandbox/requests?session=', 'query', 'session', ''],
  ['GET', '/__sandbox/requests?session=a%20b', 'query', 'session', 'a b'],
  ['GET', `/__sandbox/requests?session=${'s'.repeat(65)}`, 'query', 'session', 's'.repeat(65)],
  ['GET', '/__sandbox/requests?limit=5', 'query', 'limit', '5'],
  ['GET', '/__sandbox/requests?limit=0', 'query', 'limit', '0'],
  ['GET', '/__sandbox/requests?limit=ten', 'query', 'limit', 'ten'],
  ['GET', '/__sandbox/requests?limit=12345678', 'query', 'limit', '12345678'],
  ['DELETE', '/__sandbox/requests?session=qa-1', 'query', 'session', 'qa-1'],
  ['DELETE', '/__sandbox/requests?session=', 'query', 'session', ''],
  ['GET', '/__sandbox/requests.har?session=qa-1', 'query', 'session', 'qa-1'],
  ['GET', '/__sandbox/requests.har?session=', 'query', 'session', ''],
  ['GET', '/__sandbox/snapshots/saved-one', 'path', 'name', 'saved-one'],
  ['GET', '/__sandbox/snapshots/bad%20name', 'path', 'name', 'bad name'],
  ['DELETE', '/__sandbox/sessions/qa-dropped', 'path', 'id', 'qa-dropped'],
  ['DELETE', '/__sandbox/sessions/bad%20id', 'path', 'id', 'bad id'],
  ['DELETE', '/__sandbox/faults/kept', 'path', 'id', 'kept'],
  ['DELETE', '/__sandbox/faults/bad%20id', 'path', 'id', 'bad id'],
  ['GET', '/__sandbox/collections/bookings', 'path', 'name', 'bookings'],
  ['GET', '/__sandbox/collections/nothing', 'path', 'name', 'nothing'],
  ['GET', '/__sandbox/collections/bookings?limit=200', 'query', 'limit', '200'],
  ['GET', '/__sandbox/collections/bookings?limit=201', 'query', 'limit', '201'],
  ['GET', '/__sandbox/collections/bookings?limit=0', 'query', 'limit', '0'],
  ['GET', '/__sandbox/collections/bookings?fields=id,status', 'query', 'fields', 'id,status'],
  ['GET', '/__sandbox/collections/bookings?fields=id,', 'query', 'fields', 'id,'],
]

describe('the document and the control API give every parameter the same verdict', () => {
  beforeAll(async () => {
    // Added here: the resets of the body cases take the session's rules with them.
    const rule = { id: 'kept', path: '/payprov/account-status', status: 500, times: 1 }
    expect((await call('POST', '/__sandbox/faults', rule)).status).toBe(201)
  })

  it.each(parameters)('%s %s', async (method, url, where, name, value) => {
    const template = url
      .split('?')[0]!
      .replace(/\/snapshots\/[^/]+$/, '/snapshots/{name}')
      .replace(/\/sessions\/[^/]+$/, '/sessions/{id}')
      .replace(/\/faults\/[^/]+$/, '/faults/{id}')
      .replace(/\/collections\/[^/]+$/, '/collections/{name}')
    const valid = parameterValid(method, template, where, name, value)
    const answer = await call(method, url)
    expect(
      { refused: answer.status >= 400, status: answer.status },
      JSON.stringify(answer.body),
    ).toMatchObject({ refused: !valid })
  })

  it.each(['', 'qa-1', 'a b', 's'.repeat(65), 'x'.repeat(64)])(
    'x-sandbox-session: "%s"',
    async (value) => {
      const valid = parameterValid('GET', '/__sandbox/clock', 'header', 'x-sandbox-session', value)
      const answer = await call('GET', '/__sandbox/clock', undefined, value)
      expect(answer.status >= 400, JSON.stringify(answer.body)).toBe(!valid)
    },
  )
})
