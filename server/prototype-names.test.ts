/**
 * Every name a request gives (a scenario, a saved snapshot, a collection, a fault rule, a
 * persona, a recorded example, a record's id, a session) is looked up as a name, never as a
 * property every object inherits: `toString`, `constructor`, `__proto__`... are unknown
 * like any other name, and a name a request creates may be one of them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ErrorStatus, errorCodes } from '../mocks/core/index.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import {
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../test-support/server/test-server.ts'
import { useStateDirServers } from '../test-support/server/test-state-dir.ts'

const NAMES = ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty']
/** The name every answer is compared with: one nothing in the sandbox has. */
const ORDINARY = 'no-such-name'
const SESSION = 'names'

interface Row {
  route: string
  send(server: TestServer, name: string): Promise<TestResponse>
}

const path = (template: string, name: string) =>
  template.replace('{name}', encodeURIComponent(name))

/** Requests that look a name up: each must find nothing, and change nothing. */
const lookups: Row[] = [
  {
    route: 'POST /__sandbox/reset { scenario }',
    send: (server, name) =>
      server.request('/__sandbox/reset', { body: { scenario: name }, session: SESSION }),
  },
  {
    route: 'POST /__sandbox/reset { snapshot }',
    send: (server, name) =>
      server.request('/__sandbox/reset', { body: { snapshot: name }, session: SESSION }),
  },
  {
    route: 'GET /__sandbox/snapshots/{name}',
    send: (server, name) =>
      server.request(path('/__sandbox/snapshots/{name}', name), { session: SESSION }),
  },
  {
    route: 'DELETE /__sandbox/snapshots/{name}',
    send: (server, name) =>
      server.request(path('/__sandbox/snapshots/{name}', name), {
        method: 'DELETE',
        session: SESSION,
      }),
  },
  {
    route: 'GET /__sandbox/collections/{name}',
    send: (server, name) =>
      server.request(path('/__sandbox/collections/{name}', name), { session: SESSION }),
  },
  {
    route: 'DELETE /__sandbox/faults/{id}',
    send: (server, name) =>
      server.request(path('/__sandbox/faults/{name}', name), {
        method: 'DELETE',
        session: SESSION,
      }),
  },
  {
    route: 'POST /__sandbox/faults { persona }',
    send: (server, name) =>
      server.request('/__sandbox/faults', {
        body: { path: '/auth/refresh', status: 503, persona: name },
        session: SESSION,
      }),
  },
  {
    route: 'POST /__sandbox/faults { example }',
    send: (server, name) =>
      server.request('/__sandbox/faults', {
        body: { path: '/auth/refresh', example: name },
        session: SESSION,
      }),
  },
  {
    route: 'POST /__sandbox/scenarios { extends }',
    send: (server, name) =>
      server.request('/__sandbox/scenarios', {
        body: { name: 'extends-a-name', extends: name },
        session: SESSION,
      }),
  },
  {
    route: 'Prefer: example=<name>',
    send: (server, name) =>
      server.request('/auth/refresh?dryRun=true', {
        body: { refreshToken: 'a.b' },
        headers: { prefer: `example=${name}` },
        session: SESSION,
      }),
  },
  {
    route: 'POST /auth/idp/complete { code }',
    send: (server, name) =>
      server.request('/auth/idp/complete?dryRun=true', { body: { code: name }, session: SESSION }),
  },
  {
    route: 'POST /bookings/{bookingId}/decline',
    send: (server, name) =>
      server.request(path('/bookings/{name}/decline?dryRun=true', name), {
        as: 'host',
        body: {},
        session: SESSION,
      }),
  },
  {
    route: 'POST /users/{targetPublicId}/follow',
    send: (server, name) =>
      server.request(path('/users/{name}/follow?dryRun=true', name), {
        as: 'host',
        body: {},
        session: SESSION,
      }),
  },
  {
    route: 'POST /notifications/{id}/archive',
    send: (server, name) =>
      server.request(path('/notifications/{name}/archive?dryRun=true', name), {
        as: 'host',
        body: {},
        session: SESSION,
      }),
  },
  {
    route: 'POST /contracts/{contractId}/sign',
    send: (server, name) =>
      server.request(path('/contracts/{name}/sign?dryRun=true', name), {
        as: 'guest',
        body: { fullName: 'Gina Guest' },
        session: SESSION,
      }),
  },
  {
    route: 'POST /venues/{listingId}/send-claim-email',
    send: (server, name) =>
      server.request(path('/venues/{name}/send-claim-email?dryRun=true', name), {
        as: 'host',
        body: {},
        session: SESSION,
      }),
  },
]

/** The answer's body with `from` written as `to`, and times and durations left out. */
function normalized(answer: TestResponse, from: string, to: string) {
  const text = answer.text
    .replaceAll(from, to)
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/"durationMs":[\d.e-]+/g, '"durationMs":0')
  return { status: answer.status, text }
}

function expectApiError(answer: TestResponse) {
  const body = answer.body as { details?: unknown }
  expect(answer.body).toEqual({
    message: expect.any(String),
    code: errorCodes[answer.status as ErrorStatus],
    ...(body.details === undefined ? {} : { details: expect.any(Array) }),
  })
}

/** What a lookup must leave as it was. */
async function stateOf(server: TestServer) {
  const reads = [
    '/__sandbox/scenarios',
    '/__sandbox/snapshots',
    '/__sandbox/faults',
    '/__sandbox/collections',
    '/__sandbox/sessions',
    '/__sandbox/clock',
  ]
  const answers = await Promise.all(reads.map((read) => server.request(read, { session: SESSION })))
  // The clock runs on: what a lookup could change is whether it was moved.
  const { now: _, ...clock } = answers.pop()!.body as { now: string }
  return [...answers.map((answer, index) => [reads[index], answer.status, answer.body]), clock]
}

describe('a name that every object has is an unknown name', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    // Something of each kind, so that a lookup that went wrong would have something to change.
    await server.request('/bookings/bkg_pending/decline?dryRun=false', {
      as: 'host',
      body: {},
      session: SESSION,
    })
    const kept = await server.request('/__sandbox/snapshots', {
      body: { name: 'kept' },
      session: SESSION,
    })
    expect(kept.status).toBe(201)
    const rule = await server.request('/__sandbox/faults', {
      body: { id: 'kept', path: '/payprov/account-status', status: 503 },
      session: SESSION,
    })
    expect(rule.status).toBe(201)
  })
  afterAll(() => server.close())

  it.each(lookups.flatMap((row) => NAMES.map((name) => [row.route, name, row] as const)))(
    '%s: "%s" answers as "no-such-name" does, and changes nothing',
    async (_, name, row) => {
      const ordinary = await row.send(server, ORDINARY)
      expect(ordinary.status).toBeGreaterThanOrEqual(400)
      expect(ordinary.status).toBeLessThan(500)
      const before = await stateOf(server)

      const answer = await row.send(server, name)
      expect(answer.status).not.toBe(500)
      expect(normalized(answer, name, ORDINARY)).toEqual(normalized(ordinary, name, ORDINARY))
      expectApiError(answer)
      expect(await stateOf(server)).toEqual(before)
    },
  )

  it('holds every control route that takes a name in its table', () => {
    const control = lookups.map((row) => row.route).filter((route) => route.includes('__sandbox'))
    expect(control).toEqual(
      expect.arrayContaining([
        'POST /__sandbox/reset { scenario }',
        'POST /__sandbox/reset { snapshot }',
        'GET /__sandbox/snapshots/{name}',
        'DELETE /__sandbox/snapshots/{name}',
        'GET /__sandbox/collections/{name}',
        'DELETE /__sandbox/faults/{id}',
      ]),
    )
  })
})

describe('a name that every object has can be given to what a request creates', () => {
  const servers: TestServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  /** Creates a snapshot, a scenario, a fault rule and a session named `name`, and uses them. */
  async function transcript(name: string) {
    const server = await startTestServer()
    servers.push(server)
    const named = (template: string) => path(template, name)
    const steps: [string, () => Promise<TestResponse>][] = [
      ['save a snapshot', () => server.request('/__sandbox/snapshots', { body: { name } })],
      ['export it', () => server.request(named('/__sandbox/snapshots/{name}'))],
      [
        'reset to it',
        () => server.request('/__sandbox/reset', { body: { snapshot: name }, session: 'qa' }),
      ],
      [
        'delete it',
        () => server.request(named('/__sandbox/snapshots/{name}'), { method: 'DELETE' }),
      ],
      ['upload a scenario', () => server.request('/__sandbox/scenarios', { body: { name } })],
      [
        'reset to it',
        () => server.request('/__sandbox/reset', { body: { scenario: name }, session: 'qa' }),
      ],
      [
        'extend it',
        () => server.request('/__sandbox/scenarios', { body: { name: 'child', extends: name } }),
      ],
      [
        'save a snapshot under its name',
        () => server.request('/__sandbox/snapshots', { body: { name } }),
      ],
      ['list the scenarios', () => server.request('/__sandbox/scenarios')],
      [
        'add a fault rule',
        () =>
          server.request('/__sandbox/faults', {
            body: { id: name, path: '/payprov/account-status', status: 503 },
          }),
      ],
      ['remove it', () => server.request(named('/__sandbox/faults/{name}'), { method: 'DELETE' })],
      ['open a session', () => server.request('/__sandbox/collections', { session: name })],
      ['read its journal', () => server.request(named('/__sandbox/requests?session={name}'))],
      ['drop it', () => server.request(named('/__sandbox/sessions/{name}'), { method: 'DELETE' })],
      ['list the sessions', () => server.request('/__sandbox/sessions', { session: 'qa' })],
    ]
    const answers = []
    for (const [step, send] of steps)
      answers.push({ step, ...normalized(await send(), name, '<name>') })
    return answers
  }

  it.each(NAMES)('"%s" works as "no-such-name" does', async (name) => {
    const expected = await transcript(ORDINARY)
    expect(expected.map(({ status }) => status)).toEqual([
      201, 200, 200, 204, 201, 200, 201, 409, 200, 201, 204, 200, 200, 204, 200,
    ])
    expect(await transcript(name)).toEqual(expected)
  })
})

describe('the starting scenario', () => {
  it.each(NAMES)('refuses "%s" as it refuses any unknown name', (name) => {
    expect(() => createSandbox({ scenario: ORDINARY })).toThrow(`unknown scenario "${ORDINARY}"`)
    expect(() => createSandbox({ scenario: name })).toThrow(`unknown scenario "${name}"`)
  })
})

describe('a session log that names such a scenario', () => {
  const { temporaryDirectory, start } = useStateDirServers('sandbox-names-')

  it.each(NAMES)(
    'restores a session reset to an uploaded "%s" as one reset to any uploaded scenario, the scenario kept',
    async (name) => {
      const directory = temporaryDirectory()
      const first = await start(directory)
      expect((await first.request('/__sandbox/scenarios', { body: { name } })).status).toBe(201)
      const reset = await first.request('/__sandbox/reset', {
        body: { scenario: name },
        session: 'qa',
      })
      expect(reset.status).toBe(200)
      await first.close()

      const second = await start(directory)
      // The session is loaded from its log when first used.
      const sessions = await second.request<{ id: string; scenario: string }[]>(
        '/__sandbox/sessions',
        { session: 'qa' },
      )
      expect(second.restored?.warnings).toEqual([])
      expect(sessions.body).toContainEqual(expect.objectContaining({ id: 'qa', scenario: name }))
      const scenarios = await second.request<{ name: string }[]>('/__sandbox/scenarios')
      expect(scenarios.body.filter((scenario) => scenario.name === name)).toHaveLength(1)
    },
  )
})
