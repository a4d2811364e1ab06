import { describe, expect, it } from 'vitest'
import { createHar, createHarEntry } from '../../recordings/har.ts'
import type { Sandbox } from '../sandbox.ts'
import { createSandbox } from '../sandbox.ts'
import { SESSION_CREATED_HEADER } from './journal.ts'

const read = (sandbox: Sandbox, session: string, headers: Record<string, string> = {}) =>
  sandbox.handle({
    method: 'GET',
    url: '/payprov/account-status',
    headers: { 'x-sandbox-session': session, ...headers },
  })

const control = (sandbox: Sandbox, session: string, method: string, path: string, body?: unknown) =>
  sandbox.handle({
    method,
    url: path,
    headers: { 'x-sandbox-session': session, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  })

describe('a session is one record', () => {
  it("keeps its own journal whatever another session's traffic", async () => {
    const sandbox = createSandbox({ journalLimit: 50 })
    for (let i = 0; i < 3; i++) await read(sandbox, 'worker-a')
    for (let i = 0; i < 200; i++) await read(sandbox, 'worker-b')
    expect(sandbox.journal.list('worker-a')).toHaveLength(3)
    expect(sandbox.journal.list('worker-b')).toHaveLength(50)
    // The merged view keeps the order requests came in.
    const merged = sandbox.journal.list()
    expect(merged.slice(0, 3).map((entry) => entry.session)).toEqual([
      'worker-a',
      'worker-a',
      'worker-a',
    ])
    expect(merged).toHaveLength(53)
  })

  it('bounds all journals together, dropping the least recently used sessions’ oldest entries', async () => {
    const sandbox = createSandbox({ journalLimit: 100, journalTotalLimit: 100 })
    for (let i = 0; i < 60; i++) await read(sandbox, 'old')
    for (let i = 0; i < 60; i++) await read(sandbox, 'new')
    const old = sandbox.journal.list('old')
    expect(sandbox.journal.list('new')).toHaveLength(60)
    expect(old.length).toBeLessThan(60)
    expect(sandbox.journal.list().length).toBeLessThanOrEqual(100)
    // What is left of the old session is its newest entries, whole.
    expect(old.every((entry) => entry.session === 'old' && entry.status === 401)).toBe(true)
  })

  it('drops its fault rules and clock with it when evicted, so a reused id starts clean', async () => {
    const sandbox = createSandbox({ maxSessions: 2 })
    const added = await control(sandbox, 'qa-1', 'POST', '/__sandbox/faults', {
      path: '/payprov/account-status',
      status: 503,
    })
    expect(added.status).toBe(201)
    const moved = await control(sandbox, 'qa-1', 'POST', '/__sandbox/clock', {
      advanceSeconds: 3600,
    })
    expect(moved.status).toBe(200)
    expect((await read(sandbox, 'qa-1')).status).toBe(503)
    expect(sandbox.faults.list('qa-1')).toHaveLength(1)

    await read(sandbox, 'qa-2')
    await read(sandbox, 'qa-3') // evicts qa-1, the least recently used
    expect(sandbox.sessionIds()).not.toContain('qa-1')
    expect(sandbox.faults.list('qa-1')).toEqual([])
    expect(sandbox.clocks.has('qa-1')).toBe(false)
    expect(sandbox.journal.list('qa-1')).toEqual([])

    const back = await read(sandbox, 'qa-1')
    expect(back.status).toBe(401)
    expect(back.headers[SESSION_CREATED_HEADER]).toBe('true')
    expect(sandbox.clocks.state('qa-1')).toMatchObject({ real: true, offsetSeconds: 0 })
  })

  it('is not evicted while one of its requests is in flight', async () => {
    const sandbox = createSandbox({ maxSessions: 2 })
    await control(sandbox, 'slow', 'POST', '/__sandbox/faults', {
      path: '/payprov/account-status',
      delayMs: 200,
    })
    const pending = read(sandbox, 'slow')
    await new Promise((resolve) => setTimeout(resolve, 20))
    await read(sandbox, 'b')
    await read(sandbox, 'c')
    expect(sandbox.sessionIds()).toContain('slow')
    expect((await pending).status).toBe(401)
    expect(sandbox.journal.list('slow').at(-1)).toMatchObject({ fault: 'f1' })
  })

  it('is not brought back by a listing of the sessions, which evicts at most one', async () => {
    const sandbox = createSandbox({ maxSessions: 3 })
    for (const session of ['s1', 's2', 's3']) {
      await control(sandbox, session, 'POST', '/__sandbox/faults', {
        path: '/payprov/account-status',
        status: 503,
      })
    }
    const listed = await control(sandbox, 'newcomer', 'GET', '/__sandbox/sessions')
    expect(listed.status).toBe(200)
    expect((listed.body as { id: string }[]).map((session) => session.id)).toEqual([
      'newcomer',
      's3',
      's2',
    ])
    expect(sandbox.sessionIds()).toEqual(['s2', 's3', 'newcomer'])
    expect(sandbox.faults.list('s2')).toHaveLength(1)
    expect(sandbox.faults.list('s3')).toHaveLength(1)
  })

  it('counts what all sessions hold, where QA can read it', async () => {
    const sandbox = createSandbox()
    await read(sandbox, 'qa-1')
    await control(sandbox, 'qa-1', 'POST', '/__sandbox/faults', {
      path: '/payprov/account-status',
      status: 503,
    })
    const health = await control(sandbox, 'qa-1', 'GET', '/__sandbox/health')
    expect(health.body).toMatchObject({
      usage: {
        sessions: 1,
        maxSessions: 5000,
        journalEntries: 1,
        journalLimit: 1000,
        journalTotalLimit: 100_000,
        faultRules: 1,
      },
    })
  })
})

describe('the first answer of a session created from its scenario', () => {
  const rule = { path: '/payprov/account-status', status: 503 }

  it('says so when a fault rule answers it', async () => {
    const sandbox = createSandbox({ maxSessions: 2 })
    await read(sandbox, 'qa-1')
    await read(sandbox, 'a')
    await read(sandbox, 'b') // evicts qa-1
    expect(sandbox.sessionIds()).not.toContain('qa-1')
    // A test sets a rule on the session before its first request comes back.
    sandbox.faults.add('qa-1', rule, {
      seed: 1,
      operations: sandbox.operations,
      personaKeys: [],
    })
    const first = await read(sandbox, 'qa-1')
    expect(first.status).toBe(503)
    expect(first.headers[SESSION_CREATED_HEADER]).toBe('true')
    expect(sandbox.journal.list('qa-1')).toEqual([
      expect.objectContaining({ status: 503, fault: 'f1', sessionCreated: true }),
    ])
    const second = await read(sandbox, 'qa-1')
    expect(second.headers[SESSION_CREATED_HEADER]).toBeUndefined()
  })

  it('says so when a recorded answer answers it', async () => {
    const recorded = createHarEntry({
      method: 'GET',
      url: 'http://staging.test/payprov/account-status',
      requestHeaders: {},
      requestBody: null,
      status: 200,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: JSON.stringify({ payoutsEnabled: true }),
      startedDateTime: '2026-06-01T10:00:00.000Z',
      time: 3,
    })
    const sandbox = createSandbox({ replay: { recordings: createHar([recorded]) } })
    const first = await read(sandbox, 'replayed')
    expect(first.status).toBe(200)
    expect(first.headers[SESSION_CREATED_HEADER]).toBe('true')
    expect(sandbox.journal.list('replayed')).toEqual([
      expect.objectContaining({ status: 200, sessionCreated: true }),
    ])
    expect((await read(sandbox, 'replayed')).headers[SESSION_CREATED_HEADER]).toBeUndefined()
  })

  it('says so when a Prefer header answers it', async () => {
    const sandbox = createSandbox()
    const first = await read(sandbox, 'new-one', { prefer: 'code=503' })
    expect(first.status).toBe(503)
    expect(first.headers[SESSION_CREATED_HEADER]).toBe('true')
  })

  it('says so when the control call that sets a fault rule starts the session', async () => {
    const sandbox = createSandbox()
    const added = await control(sandbox, 'qa-9', 'POST', '/__sandbox/faults', rule)
    expect(added.headers[SESSION_CREATED_HEADER]).toBe('true')
    const faulted = await read(sandbox, 'qa-9')
    expect(faulted.status).toBe(503)
    expect(faulted.headers[SESSION_CREATED_HEADER]).toBeUndefined()
  })
})
