import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxRequest } from '../../mocks/core/index.ts'
import { setupSandboxServer } from '../../mocks/runtimes/node/index.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'
import { getRecordedExample, recordedExampleFiles } from '../../spec/examples/index.ts'
import { createHar, createHarEntry, type HarEntry } from '../har.ts'
import { RecordingsFormatError } from './recordings.ts'
import { createReplay } from './replay.ts'

function entry(method: string, path: string, status: number, body: unknown, sent?: unknown) {
  return createHarEntry({
    method,
    url: `http://staging.test${path}`,
    requestHeaders: sent === undefined ? {} : { 'content-type': 'application/json' },
    requestBody: sent === undefined ? null : JSON.stringify(sent),
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: JSON.stringify(body),
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 3,
  })
}

const entries: HarEntry[] = [
  entry('GET', '/payprov/account-status', 200, { payoutsEnabled: 'first' }),
  entry('GET', '/payprov/account-status', 200, { payoutsEnabled: 'second' }),
  entry('GET', '/payprov/account-status?verbose=1', 200, { verbose: true }),
  entry(
    'POST',
    '/bookings/bkg_pending/decline?dryRun=true',
    201,
    { recorded: true },
    {
      reason: 'Closed',
      meta: { a: 1, b: 2 },
    },
  ),
]
const har = createHar(entries)

async function send(sandbox: ReturnType<typeof createSandbox>, request: Partial<SandboxRequest>) {
  const answer = await sandbox.handle({ method: 'GET', url: '/', headers: {}, ...request })
  return {
    status: answer.status,
    body: typeof answer.body === 'string' ? JSON.parse(answer.body) : answer.body,
  }
}

describe('replay', () => {
  it('answers identical requests with the recorded answers in order, the last repeating', async () => {
    const sandbox = createSandbox({ replay: { recordings: har } })
    const bodies = []
    for (let i = 0; i < 3; i++) {
      bodies.push((await send(sandbox, { url: '/payprov/account-status' })).body)
    }
    expect(bodies).toEqual([
      { payoutsEnabled: 'first' },
      { payoutsEnabled: 'second' },
      { payoutsEnabled: 'second' },
    ])
    // Another session has its own sequence, and a reset starts a session's over.
    const other = { [SESSION_HEADER]: 'other' }
    expect((await send(sandbox, { url: '/payprov/account-status', headers: other })).body).toEqual({
      payoutsEnabled: 'first',
    })
    await sandbox.reset()
    expect((await send(sandbox, { url: '/payprov/account-status' })).body).toEqual({
      payoutsEnabled: 'first',
    })
  })

  it('matches on the query and the JSON body, whatever the key order', async () => {
    const sandbox = createSandbox({ replay: { recordings: har } })
    expect((await send(sandbox, { url: '/payprov/account-status?verbose=1' })).body).toEqual({
      verbose: true,
    })
    const decline = {
      method: 'POST',
      url: '/bookings/bkg_pending/decline?dryRun=true',
      headers: { 'content-type': 'application/json' },
    }
    const matched = await send(sandbox, {
      ...decline,
      body: '{"meta":{"b":2,"a":1},"reason":"Closed"}',
    })
    expect(matched).toEqual({ status: 201, body: { recorded: true } })
    // Another body falls through to the model, which wants a token.
    const model = await send(sandbox, { ...decline, body: '{"reason":"Other"}' })
    expect(model.status).toBe(401)
    expect(sandbox.journal.list().map((e) => [e.operationId, e.status])).toEqual([
      ['getAccountStatus', 200],
      ['declineBooking', 201],
      ['declineBooking', 401],
    ])
  })

  it('leaves the ignored fields out of matching', async () => {
    const sandbox = createSandbox({ replay: { recordings: har, ignore: ['reason', 'meta.b'] } })
    const answer = await send(sandbox, {
      method: 'POST',
      url: '/bookings/bkg_pending/decline?dryRun=true',
      headers: { 'content-type': 'application/json' },
      body: '{"reason":"Anything","meta":{"a":1,"b":99}}',
    })
    expect(answer).toEqual({ status: 201, body: { recorded: true } })
  })

  it('answers 404 for an unmatched request with only, and the model otherwise', async () => {
    const only = createSandbox({ replay: { recordings: har, only: true } })
    expect(await send(only, { url: '/payprov/account-status?other=1' })).toEqual({
      status: 404,
      body: { message: 'No recording matched GET /payprov/account-status', code: 'NOT_FOUND' },
    })
    expect((await send(only, { url: '/__sandbox/health' })).status).toBe(200)
    const fallback = createSandbox({ replay: { recordings: har } })
    expect((await send(fallback, { url: '/payprov/account-status?other=1' })).status).toBe(401)
  })

  it('replays an examples file of spec/examples', async () => {
    const file = recordedExampleFiles.find((f) => f.operationId === 'declineBooking')!
    const sandbox = createSandbox({ replay: { recordings: file } })
    const example = getRecordedExample('declineBooking', 'bookingNotPending')
    const answer = await send(sandbox, {
      method: 'POST',
      url: `/bookings/${example.request.params?.bookingId}/decline`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(example.request.body),
    })
    expect(answer).toEqual({ status: 409, body: example.response.body })
  })

  it('refuses a malformed document, saying what is wrong', () => {
    expect(() => createReplay({ recordings: { log: { entries: [{}] } } as never })).toThrow(
      new RecordingsFormatError(
        'not a HAR 1.2 document: log.entries.0.request: expected an object',
      ),
    )
    expect(() => createReplay({ recordings: { hello: 1 } as never })).toThrow(
      /neither a HAR document/,
    )
  })

  it('indexes by method and path, so only that route is looked at', () => {
    const many = createHar(
      Array.from({ length: 500 }, (_, i) => entry('GET', `/users/u${i}/follow`, 201, { i })),
    )
    const replay = createReplay({ recordings: many })
    const answer = replay.answer({
      method: 'GET',
      path: '/users/u499/follow',
      query: new URLSearchParams(),
      body: '',
      session: 'default',
    })
    expect(answer?.body).toBe('{"i":499}')
  })
})

describe('setupSandboxServer({ replay })', () => {
  it('reads a HAR file by path, answers through msw, and names answers that break the contract', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sandbox-replay-'))
    const file = join(folder, 'staging.har')
    writeFileSync(file, JSON.stringify(har))
    const { server, replayProblems } = setupSandboxServer({ replay: { recordings: file } })
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const response = await fetch('http://api.test/payprov/account-status')
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ payoutsEnabled: 'first' })
      // Recorded answers the merged contract does not allow are named, by recording.
      const problems = await replayProblems
      expect(problems).toContain(
        "#1 GET /payprov/account-status: the 200 answer of getAccountStatus breaks the contract: body must have required property 'payouts_enabled'",
      )
      expect(problems.map((problem) => problem.split(':')[0])).toEqual([
        '#1 GET /payprov/account-status',
        '#2 GET /payprov/account-status',
        '#3 GET /payprov/account-status?verbose=1',
        '#4 POST /bookings/bkg_pending/decline?dryRun=true',
      ])
      expect(problems[3]).toContain('the 201 answer of declineBooking breaks the contract')
    } finally {
      server.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
