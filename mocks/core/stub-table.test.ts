/**
 * The core on a table of two stub operations, the way msw tests its request handling on
 * stub handlers: routing, who may call, dryRun, faults and events, with nothing of the
 * reference's thirteen operations in the way.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { createPersonaData, personas } from '../../fixtures/personas.ts'
import type { Scenario } from '../model/content.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { builtInContent } from '../sandbox.ts'
import { notFound } from './errors.ts'
import type { SandboxRequest } from './http.ts'
import { defineBuiltInOperation } from './operation.ts'
import { assembleSandbox } from './sandbox.ts'
import { issueAccessToken } from './tokens.ts'

const readUser = defineBuiltInOperation({
  id: 'readUser',
  row: 1,
  method: 'GET',
  path: '/people/{id}',
  auth: 'user',
  dryRun: false,
  successStatus: 200,
  params: z.object({ id: nonEmpty() }),
  body: undefined,
  async run({ params, store }) {
    const user = store.users.get(params.id)
    if (!user) throw notFound(`User "${params.id}" not found`)
    return { body: { id: user.publicId, displayName: user.displayName } }
  },
})

const renameUser = defineBuiltInOperation({
  id: 'renameUser',
  row: 2,
  method: 'POST',
  path: '/people/{id}/rename',
  auth: 'admin',
  dryRun: true,
  successStatus: 201,
  params: z.object({ id: nonEmpty() }),
  body: z.strictObject({ displayName: nonEmpty() }),
  async run({ params, body, store }) {
    if (!store.users.has(params.id)) throw notFound(`User "${params.id}" not found`)
    return {
      body: { renamed: true },
      async apply() {
        await store.users.update(params.id, (draft) => {
          draft.displayName = body.displayName
        })
      },
    }
  },
})

const tiny: Scenario = {
  name: 'tiny',
  description: 'Only the personas',
  build: () => createPersonaData(),
}

const { scenarioFiles } = builtInContent
const SECRET = 'stub-table-secret'
const NOW = new Date('2026-06-01T12:00:00Z')

function stubSandbox() {
  return assembleSandbox(
    {
      operations: [readUser, renameUser],
      personas,
      scenarios: { tiny },
      defaultSeed: 1,
      scenarioFiles,
    },
    { scenario: 'tiny', secret: SECRET, now: () => NOW },
  )
}

async function bearer(key: 'admin' | 'host') {
  const persona = personas.find((candidate) => candidate.key === key)!
  const token = await issueAccessToken(
    { secret: SECRET, ttlSeconds: 900 },
    { sub: persona.publicId, roles: persona.roles },
    NOW,
  )
  return `Bearer ${token}`
}

function request(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: object,
): SandboxRequest {
  return {
    method,
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  }
}

let sandbox: ReturnType<typeof stubSandbox>
beforeEach(() => {
  sandbox = stubSandbox()
})

const nameOf = async (id: string) => (await sandbox.store()).users.get(id)?.displayName

describe('routing from the table', () => {
  it('answers a route of the table with its operation', async () => {
    const answer = await sandbox.handle(
      request('GET', '/people/usr_host', { authorization: await bearer('host') }),
    )
    expect(answer).toMatchObject({
      status: 200,
      body: { id: 'usr_host', displayName: 'Hugo Host' },
    })
  })

  it('answers 404 for a path the table does not have, as an ApiErrorResponseDto', async () => {
    const answer = await sandbox.handle(request('GET', '/bookings/bkg_pending'))
    expect(answer).toMatchObject({
      status: 404,
      body: { message: 'Cannot GET /bookings/bkg_pending', code: 'NOT_FOUND' },
    })
  })

  it('answers 405 with Allow for another method on a known path, OPTIONS with 204', async () => {
    const refused = await sandbox.handle(request('DELETE', '/people/usr_host'))
    expect(refused.status).toBe(405)
    expect(refused.headers.allow).toBe('GET, HEAD, OPTIONS')
    expect(refused.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' })
    const options = await sandbox.handle(request('OPTIONS', '/people/usr_host/rename'))
    expect(options).toMatchObject({ status: 204, headers: { allow: 'POST, OPTIONS' } })
  })

  it('tells a mounted runtime the route once, and answers through it', async () => {
    const found = sandbox.route('GET', '/people/usr_host')
    expect(found).toEqual({ operation: readUser })
    expect(sandbox.route('GET', '/__sandbox/health')).toBe('control')
    expect(sandbox.route('GET', '/elsewhere')).toBeUndefined()
    const answer = await sandbox.handle(
      request('GET', '/people/usr_host', { authorization: await bearer('host') }),
      found as { operation: typeof readUser },
    )
    expect(answer).toMatchObject({ status: 200, body: { id: 'usr_host' } })
  })

  it('answers HEAD like GET without the body', async () => {
    const head = await sandbox.handle(
      request('HEAD', '/people/usr_host', { authorization: await bearer('host') }),
    )
    expect(head.status).toBe(200)
    expect(head.body).toBeUndefined()
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
  })

  it('routes /__sandbox from the control table beside the operations', async () => {
    const health = await sandbox.handle(request('GET', '/__sandbox/health'))
    expect(health).toMatchObject({ status: 200, body: { scenario: 'tiny', seed: 1 } })
    const refused = await sandbox.handle(request('PUT', '/__sandbox/clock'))
    expect(refused).toMatchObject({
      status: 405,
      headers: { allow: 'GET, POST, DELETE, HEAD, OPTIONS' },
    })
  })
})

describe('who may call', () => {
  it('refuses a persona operation without a bearer token: 401', async () => {
    const answer = await sandbox.handle(request('GET', '/people/usr_host'))
    expect(answer).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })

  it('refuses an admin operation to another persona: 403, and nothing changes', async () => {
    const answer = await sandbox.handle(
      request(
        'POST',
        '/people/usr_guest/rename',
        { authorization: await bearer('host') },
        { displayName: 'Renamed' },
      ),
    )
    expect(answer).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    expect(await nameOf('usr_guest')).toBe('Gina Guest')
  })

  it('closes the control API but its public routes under a control token', async () => {
    const guarded = assembleSandbox(
      { operations: [readUser], personas, scenarios: { tiny }, defaultSeed: 1, scenarioFiles },
      { scenario: 'tiny', controlToken: 'letmein' },
    )
    expect((await guarded.handle(request('GET', '/__sandbox/health'))).status).toBe(200)
    const refused = await guarded.handle(request('GET', '/__sandbox/personas'))
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toContain('Bearer')
    const allowed = await guarded.handle(
      request('GET', '/__sandbox/personas', { authorization: 'Bearer letmein' }),
    )
    expect(allowed.status).toBe(200)
  })
})

describe('dryRun', () => {
  it('answers like a write and changes nothing with dryRun=true', async () => {
    const answer = await sandbox.handle(
      request(
        'POST',
        '/people/usr_guest/rename?dryRun=true',
        { authorization: await bearer('admin') },
        { displayName: 'Renamed' },
      ),
    )
    expect(answer).toMatchObject({ status: 201, body: { renamed: true } })
    expect(await nameOf('usr_guest')).toBe('Gina Guest')
  })

  it('writes with dryRun=false, and refuses any other value with a 400', async () => {
    const authorization = await bearer('admin')
    const bad = await sandbox.handle(
      request(
        'POST',
        '/people/usr_guest/rename?dryRun=yes',
        { authorization },
        { displayName: 'X' },
      ),
    )
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
    expect(await nameOf('usr_guest')).toBe('Gina Guest')
    const written = await sandbox.handle(
      request(
        'POST',
        '/people/usr_guest/rename?dryRun=false',
        { authorization },
        { displayName: 'X' },
      ),
    )
    expect(written.status).toBe(201)
    expect(await nameOf('usr_guest')).toBe('X')
  })
})

describe('faults', () => {
  it('answers a faulted operation with the rule’s status, once, and marks it in the journal', async () => {
    const added = await sandbox.handle(
      request(
        'POST',
        '/__sandbox/faults',
        {},
        { method: 'GET', path: '/people/:id', status: 500, times: 1 },
      ),
    )
    expect(added.status).toBe(201)
    const authorization = await bearer('host')
    const faulted = await sandbox.handle(request('GET', '/people/usr_host', { authorization }))
    expect(faulted).toMatchObject({ status: 500, body: { code: 'INTERNAL_SERVER_ERROR' } })
    const next = await sandbox.handle(request('GET', '/people/usr_host', { authorization }))
    expect(next.status).toBe(200)
    const [first, second] = sandbox.journal.list().slice(-2)
    expect(first).toMatchObject({ operationId: 'readUser', status: 500, fault: expect.any(String) })
    expect(second).toMatchObject({ operationId: 'readUser', status: 200 })
    expect(second).not.toHaveProperty('fault')
  })
})

describe('events', () => {
  it('announces each answer, each operation applied and each reset, in order', async () => {
    const seen: string[] = []
    sandbox.events.on('request:end', ({ data }) =>
      seen.push(`end ${data.entry.method} ${data.entry.path} ${data.entry.status}`),
    )
    sandbox.events.on('operation:applied', ({ data }) =>
      seen.push(`applied ${data.operationId} ${data.status} dryRun=${data.dryRun}`),
    )
    sandbox.events.on('session:reset', ({ data }) => seen.push(`reset ${data.session}`))
    await sandbox.handle(
      request(
        'POST',
        '/people/usr_guest/rename',
        { authorization: await bearer('admin') },
        { displayName: 'Y' },
      ),
    )
    await sandbox.handle(request('GET', '/nowhere'))
    await sandbox.reset({ session: 'qa' })
    expect(seen).toEqual([
      'applied renameUser 201 dryRun=false',
      'end POST /people/usr_guest/rename 201',
      'end GET /nowhere 404',
      'reset qa',
    ])
  })
})

describe('plugged stages', () => {
  it('answer after the control API and fault rules, before the model, the first answer winning', async () => {
    const asked: string[] = []
    const rewound: (string | undefined)[] = []
    const plugged = assembleSandbox(
      {
        operations: [readUser, renameUser],
        personas,
        scenarios: { tiny },
        defaultSeed: 1,
        scenarioFiles,
      },
      {
        scenario: 'tiny',
        secret: SECRET,
        now: () => NOW,
        maxSessions: 2,
        stages: [
          {
            answer({ method, path, session }) {
              asked.push(`first ${method} ${path} ${session}`)
              if (path === '/people/usr_host') {
                return { status: 299, headers: {}, setCookie: [], body: { from: 'first' } }
              }
              return undefined
            },
            rewind: (session) => rewound.push(session),
          },
          {
            answer: async ({ path }) =>
              path === '/elsewhere'
                ? { status: 203, headers: {}, setCookie: [], body: { from: 'second' } }
                : undefined,
          },
        ],
      },
    )
    const host = await bearer('host')
    const stubbed = await plugged.handle(
      request('GET', '/people/usr_host', { authorization: host, 'x-sandbox-session': 'a' }),
    )
    expect([stubbed.status, stubbed.body]).toEqual([299, { from: 'first' }])
    // Passed on: the model answers.
    const modelled = await plugged.handle(
      request('GET', '/people/usr_guest', { authorization: host, 'x-sandbox-session': 'a' }),
    )
    expect(modelled.status).toBe(200)
    expect(modelled.body).toMatchObject({ id: 'usr_guest' })
    // A route the sandbox does not know is offered too, before its 404.
    const unknown = await plugged.handle(request('GET', '/elsewhere'))
    expect([unknown.status, unknown.body]).toEqual([203, { from: 'second' }])
    expect((await plugged.handle(request('GET', '/nowhere'))).status).toBe(404)
    // The control API and fault rules come first.
    await plugged.handle(request('GET', '/__sandbox/health'))
    const rule = await plugged.handle(
      request(
        'POST',
        '/__sandbox/faults',
        { 'x-sandbox-session': 'a' },
        { method: 'GET', path: '/people/:id', status: 503 },
      ),
    )
    expect(rule.status).toBe(201)
    const faulted = await plugged.handle(
      request('GET', '/people/usr_host', { authorization: host, 'x-sandbox-session': 'a' }),
    )
    expect(faulted.status).toBe(503)
    expect(asked).toEqual([
      'first GET /people/usr_host a',
      'first GET /people/usr_guest a',
      'first GET /elsewhere default',
      'first GET /nowhere default',
    ])
    // Told when a session's record is released, and when every session is reset.
    await plugged.handle(request('GET', '/people/usr_guest', { 'x-sandbox-session': 'b' }))
    await plugged.handle(request('GET', '/people/usr_guest', { 'x-sandbox-session': 'c' }))
    await plugged.resetAll()
    expect(rewound).toContain('a')
    expect(rewound).toContain(undefined)
    expect(plugged.stages).toHaveLength(2)
  })
})
