import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const decline = (id: string) => `/bookings/${id}/decline`
const addRule = (rule: unknown, session?: string) =>
  api.request('/__sandbox/faults', { body: rule, ...(session ? { session } : {}) })

describe('fault rules', () => {
  it('answers a status with an ApiErrorResponseDto for the next N calls, then the real answer', async () => {
    const added = await addRule({
      method: 'POST',
      path: '/bookings/:id/decline',
      status: 500,
      times: 1,
    })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ id: 'f1', method: 'POST', remaining: 1 })

    const faulted = await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect(faulted.status).toBe(500)
    expect(faulted.body).toEqual({
      message: 'Fault rule f1 answered 500',
      code: 'INTERNAL_SERVER_ERROR',
    })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')

    const real = await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect(real.status).toBe(201)
    const journal = sandbox.journal.list().filter((entry) => entry.path.startsWith('/bookings'))
    expect(journal.map((entry) => [entry.status, entry.fault])).toEqual([
      [500, 'f1'],
      [201, undefined],
    ])
    expect(journal[1]?.persona).toBe('host')
    expect((await api.request('/__sandbox/faults')).body).toEqual([
      expect.objectContaining({ id: 'f1', remaining: 0 }),
    ])
  })

  it('answers a named recorded example', async () => {
    await addRule({ path: '/bookings/bkg_pending/decline', example: 'bookingNotPending' })
    const response = await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
    // Another booking does not match the literal segment.
    const other = await api.request(decline(anchors.bookings.pending2), { as: 'host', body: {} })
    expect(other.status).toBe(201)
  })

  it('fails with a network error in msw', async () => {
    await addRule({ path: '/bookings/:id/decline', networkError: true })
    await expect(
      api.request(decline(anchors.bookings.pending), { as: 'host', body: {} }),
    ).rejects.toThrow(TypeError)
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 0, fault: 'f1' })
  })

  it('delays the normal answer', async () => {
    await addRule({ path: '/bookings/:id/decline', delayMs: 150 })
    const started = performance.now()
    const response = await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(response.status).toBe(201)
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 201, fault: 'f1' })
  })

  it('matches only the persona it names', async () => {
    await addRule({ path: '/bookings/:id/decline', persona: 'guest', status: 403 })
    const asHost = await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect(asHost.status).toBe(201)
    const asGuest = await api.request(decline(anchors.bookings.pending2), { as: 'guest', body: {} })
    expect(asGuest.status).toBe(403)
    expect(asGuest.body.message).toBe('Fault rule f1 answered 403')
  })

  it('draws a seeded probability: the same rule gives the same sequence', async () => {
    const run = async () => {
      await api.request('/__sandbox/reset', { body: {} })
      await addRule({ path: '/auth/refresh', status: 500, probability: 0.5, seed: 42 })
      const statuses: number[] = []
      for (let i = 0; i < 16; i++) {
        const response = await api.request('/auth/refresh?dryRun=true', {
          body: { refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' },
        })
        statuses.push(response.status)
      }
      return statuses
    }
    const first = await run()
    expect(first).toContain(500)
    expect(first).toContain(200)
    expect(await run()).toEqual(first)
  })

  it('keeps rules per session and removes them', async () => {
    await addRule({ path: '/auth/refresh', status: 500 }, 'qa-1')
    const elsewhere = await api.request('/__sandbox/faults')
    expect(elsewhere.body).toEqual([])
    const listed = await api.request('/__sandbox/faults', { session: 'qa-1' })
    expect(listed.body).toHaveLength(1)
    const removed = await api.request('/__sandbox/faults/f1', { method: 'DELETE', session: 'qa-1' })
    expect(removed.status).toBe(204)
    expect((await api.request('/__sandbox/faults', { session: 'qa-1' })).body).toEqual([])
    const missing = await api.request('/__sandbox/faults/f1', { method: 'DELETE', session: 'qa-1' })
    expect(missing.status).toBe(404)
  })

  it('is cleared by a reset of the session', async () => {
    await addRule({ path: '/auth/refresh', status: 500 })
    await api.request('/__sandbox/reset', { body: {} })
    expect((await api.request('/__sandbox/faults')).body).toEqual([])
  })
})

describe('gateway faults', () => {
  it('answers 503 with Retry-After 1 and an ApiErrorResponseDto, marked in the journal', async () => {
    const added = await addRule({ method: 'POST', path: '/bookings/:id/decline', status: 503 })
    expect(added.status).toBe(201)
    const response = await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('1')
    expect(response.headers.get('x-sandbox-fault')).toBe('f1')
    expect(response.body).toEqual({
      message: 'Fault rule f1 answered 503',
      code: 'SERVICE_UNAVAILABLE',
    })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      path: decline(anchors.bookings.pending),
      status: 503,
      fault: 'f1',
      gateway: true,
    })
  })

  it('answers 429 with the Retry-After the rule gives, for a read too', async () => {
    await addRule({ path: '/payprov/account-status', status: 429, retryAfterSeconds: 30 })
    const response = await api.request('/payprov/account-status', { as: 'host' })
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('30')
    expect(response.body.code).toBe('TOO_MANY_REQUESTS')
  })

  it.each([
    [502, 'BAD_GATEWAY'],
    [504, 'GATEWAY_TIMEOUT'],
  ])(
    'answers %i (%s) without Retry-After, on an operation that documents no error',
    async (status, code) => {
      await addRule({ path: '/auth/idp/complete', status, message: 'upstream gone' })
      const response = await api.request('/auth/idp/complete', { body: { code: 'x' } })
      expect(response.status).toBe(status)
      expect(response.headers.get('retry-after')).toBeNull()
      expect(response.body).toEqual({ message: 'upstream gone', code })
    },
  )

  it('leaves the journal unmarked for an ordinary fault status', async () => {
    await addRule({ path: '/auth/refresh', status: 500 })
    await api.request('/auth/refresh', { body: {} })
    const entry = sandbox.journal.list().at(-1)
    expect(entry).toMatchObject({ status: 500, fault: 'f1' })
    expect(entry?.gateway).toBeUndefined()
  })

  it('is answered the same by the core without msw', async () => {
    await addRule({ path: '/auth/refresh', status: 503, retryAfterSeconds: 7 })
    const answer = await sandbox.handle({
      method: 'POST',
      url: '/auth/refresh',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(answer.status).toBe(503)
    expect(answer.headers).toMatchObject({ 'retry-after': '7', 'x-sandbox-fault': 'f1' })
    expect(answer.body).toEqual({
      message: 'Fault rule f1 answered 503',
      code: 'SERVICE_UNAVAILABLE',
    })
  })
})

describe('bad fault rules', () => {
  it.each([
    [{ path: '/auth/refresh', status: 500, colour: 'red' }, 'property colour should not exist'],
    [{ path: '/auth/refresh', delayMs: -5 }, 'delayMs must be at least 0'],
    [
      { path: '/auth/refresh', status: 500, probability: 1.5 },
      'probability must not be greater than 1',
    ],
    [{ path: '/auth/refresh', delayMs: 60_001 }, 'delayMs must not be greater than 60000'],
    [
      { path: '/auth/refresh', status: 418 },
      'status: must be one of: 400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 503, 504',
    ],
    [
      { path: '/auth/refresh' },
      'give one of status, example, networkError, or a delayMs or jitterMs',
    ],
    [
      { path: '/auth/refresh', example: 'nope' },
      'example "nope" is not a recorded example of refreshToken',
    ],
    [
      { path: '/bookings/:id/accept', status: 500 },
      'path /bookings/:id/accept matches no operation',
    ],
    [
      { method: 'GET', path: '/auth/refresh', status: 500 },
      'path GET /auth/refresh matches no operation',
    ],
    [{ path: '/auth/refresh', status: 500, persona: 'ghost' }, 'persona must be one of: admin'],
    [
      { path: '/auth/refresh', status: 502, retryAfterSeconds: 5 },
      'retryAfterSeconds goes with status 429 or 503',
    ],
    [
      { path: '/auth/refresh', status: 429, retryAfterSeconds: 86_401 },
      'retryAfterSeconds must not be greater than 86400',
    ],
  ])('refuses %j with a 400 that says why', async (rule, detail) => {
    const response = await addRule(rule)
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('BAD_REQUEST')
    expect(response.body.details.join('\n')).toContain(detail)
    expect((await api.request('/__sandbox/faults')).body).toEqual([])
  })
})
