import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personas } from '../../fixtures/personas.ts'
import { createSandbox } from '../sandbox.ts'
import { CLOCK_RANGE, SessionClocks, SessionRegistry } from './sessions.ts'

const host = personas.find((persona) => persona.key === 'host')!

function start() {
  const sandbox = createSandbox()
  const call = (method: string, url: string, body?: unknown, session = 'qa', token?: string) =>
    sandbox.handle({
      method,
      url,
      headers: {
        'content-type': 'application/json',
        'x-sandbox-session': session,
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const clock = async (session = 'qa') =>
    (await call('GET', '/__sandbox/clock', undefined, session)).body as { now: string }
  return { sandbox, call, clock }
}

const hostToken = async (call: ReturnType<typeof start>['call']) =>
  (
    (await call('POST', '/auth/refresh?dryRun=true', { refreshToken: host.refreshToken }, 'tok'))
      .body as { accessToken: string }
  ).accessToken

describe('the clock stays in the years 1970 to 9999', () => {
  it('refuses an advance of -6.15e16 s with 400 naming the bound, and the session answers on', async () => {
    const { call, clock } = start()
    const before = await clock()
    const refused = await call('POST', '/__sandbox/clock', { advanceSeconds: -6.15e16 })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      code: 'BAD_REQUEST',
      message: 'Validation failed',
      details: ['advanceSeconds must be at least -253402300800'],
    })
    expect(await clock()).toMatchObject({ real: true, offsetSeconds: 0 })
    expect(Date.parse((await clock()).now)).toBeGreaterThanOrEqual(Date.parse(before.now))
    expect((await call('GET', '/__sandbox/collections')).status).toBe(200)
  })

  it('refuses a time before 1970, and one an offset puts there, the clock kept', async () => {
    const { call, clock } = start()
    await call('POST', '/__sandbox/clock', { now: '2030-01-01T00:00:00Z' })
    const early = await call('POST', '/__sandbox/clock', { now: '1969-12-31T23:59:59Z' })
    expect(early.status).toBe(400)
    expect(early.body).toMatchObject({ details: ['now must be in the years 1970 to 9999'] })
    const shifted = await call('POST', '/__sandbox/clock', { now: '1970-01-01T00:30:00+01:00' })
    expect(shifted.status).toBe(400)
    expect((shifted.body as { details: string[] }).details[0]).toMatch(
      /^now would put the clock outside 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z; it stays at 2030-01-01T00:00:0/,
    )
    expect((await clock()).now).toMatch(/^2030-01-01T00:00:0/)
  })

  it('refuses advances that add up past 9999, keeping the clock before them', async () => {
    const { call, clock } = start()
    expect((await call('POST', '/__sandbox/clock', { now: '9999-12-30T00:00:00Z' })).status).toBe(
      200,
    )
    expect((await call('POST', '/__sandbox/clock', { advanceSeconds: 86_400 })).status).toBe(200)
    const past = await call('POST', '/__sandbox/clock', { advanceSeconds: 86_400 })
    expect(past.status).toBe(400)
    expect(past.body).toMatchObject({
      message: 'Clock out of range',
      details: [
        expect.stringMatching(
          /^advanceSeconds would put the clock outside .*Z; it stays at 9999-12-31T00:00:0/,
        ),
      ],
    })
    expect((await clock()).now).toMatch(/^9999-12-31T00:00:0/)
    // Sign-in and writes work at the end of the range.
    const signedIn = await call('POST', '/auth/refresh', { refreshToken: host.refreshToken })
    expect(signedIn.status).toBe(200)
  })

  it('DELETE /__sandbox/clock and a reset to default put it back on real time', async () => {
    const { call, clock } = start()
    await call('POST', '/__sandbox/clock', { now: '9999-12-31T23:59:59.999Z' })
    expect((await call('DELETE', '/__sandbox/clock')).body).toMatchObject({ real: true })
    await call('POST', '/__sandbox/clock', { now: '1970-01-01T00:00:00Z' })
    expect((await call('POST', '/__sandbox/reset', { scenario: 'default' })).status).toBe(200)
    expect(await clock()).toMatchObject({ real: true, offsetSeconds: 0 })
  })

  it('never makes an invalid date of an offset out of range (an old record), and recovers', () => {
    const sessions = new SessionRegistry({
      maxSessions: 10,
      open: () => Promise.reject(new Error('not used')),
      openNow: () => ({}) as never,
    })
    const clocks = new SessionClocks(sessions, () => new Date('2026-06-01T00:00:00Z'))
    for (const offset of [-6.15e19, 6.15e19, Number.NaN, Number.POSITIVE_INFINITY]) {
      sessions.openNow('old').clockOffsetMs = offset
      const time = clocks.now('old').getTime()
      expect(time >= CLOCK_RANGE.min && time <= CLOCK_RANGE.max, String(offset)).toBe(true)
      expect(() => clocks.state('old')).not.toThrow()
      expect(() => clocks.advance('old', 60)).toThrow(/Clock out of range|outside/)
      clocks.reset('old')
      expect(clocks.state('old')).toEqual({
        now: '2026-06-01T00:00:00.000Z',
        offsetSeconds: 0,
        real: true,
      })
    }
  })
})

describe('every value a control call keeps is bounded', () => {
  const rule = { path: '/payprov/account-status', status: 500 }
  it.each([
    [
      { ...rule, message: 'x'.repeat(1_001) },
      'message must be shorter than or equal to 1000 characters',
    ],
    [{ ...rule, details: Array(21).fill('x') }, 'details must contain no more than 20 elements'],
    [
      { ...rule, details: ['x'.repeat(1_001)] },
      'details.0 must be shorter than or equal to 1000 characters',
    ],
    [{ ...rule, times: 1_000_001 }, 'times must not be greater than 1000000'],
    [{ ...rule, seed: 2 ** 53 }, 'seed must not be greater than 9007199254740991'],
    [
      { ...rule, path: `/${'x'.repeat(1_000)}` },
      'path must be shorter than or equal to 1000 characters',
    ],
    [
      { ...rule, method: 'G'.repeat(17) },
      'method must be an HTTP method such as GET, or * for any',
    ],
    [{ path: '/auth/refresh', delayMs: 1e12 }, 'delayMs must not be greater than 60000'],
  ])('a fault rule %j is refused: %s', async (body, detail) => {
    const { call } = start()
    const refused = await call('POST', '/__sandbox/faults', body)
    expect(refused.status).toBe(400)
    expect((refused.body as { details: string[] }).details).toContain(detail)
    expect((await call('GET', '/__sandbox/faults')).body).toEqual([])
  })

  it('a session holds at most 100 fault rules; one more is refused, a replacement is not', async () => {
    const { call } = start()
    for (let i = 0; i < 100; i++) {
      expect((await call('POST', '/__sandbox/faults', rule)).status).toBe(201)
    }
    const more = await call('POST', '/__sandbox/faults', rule)
    expect(more.status).toBe(400)
    expect((more.body as { details: string[] }).details[0]).toMatch(
      /^a session holds at most 100 fault rules: remove one \(DELETE \/__sandbox\/faults\/\{id\}\)/,
    )
    expect((await call('POST', '/__sandbox/faults', { ...rule, id: 'f7' })).status).toBe(201)
    expect((await call('GET', '/__sandbox/faults')).body).toHaveLength(100)
    // Another session is not affected.
    expect((await call('POST', '/__sandbox/faults', rule, 'other')).status).toBe(201)
  })

  it('at most 100 snapshots are saved; a new name more is refused until one is deleted', async () => {
    const { call } = start()
    for (let i = 0; i < 100; i++) {
      expect((await call('POST', '/__sandbox/snapshots', { name: `s${i}` })).status).toBe(201)
    }
    const more = await call('POST', '/__sandbox/snapshots', { name: 's100' })
    expect(more.status).toBe(400)
    expect(more.body).toMatchObject({
      message: 'Too many snapshots',
      details: [
        expect.stringMatching(/^the sandbox keeps at most 100 saved snapshots: delete one/),
      ],
    })
    const replaced = await call('POST', '/__sandbox/snapshots', { name: 's1', replace: true })
    expect(replaced.status).toBe(201)
    expect((await call('DELETE', '/__sandbox/snapshots/s0')).status).toBe(204)
    expect((await call('POST', '/__sandbox/snapshots', { name: 's100' })).status).toBe(201)
  })

  it('at most 100 scenarios are added after the start; a description at most 1,000 characters', async () => {
    const { call } = start()
    const long = await call('POST', '/__sandbox/scenarios', {
      name: 'long',
      description: 'x'.repeat(1_001),
    })
    expect(long.status).toBe(400)
    expect((long.body as { details: string[] }).details).toEqual([
      'scenario "long": description: expected at most 1000 characters, got 1001',
    ])
    for (let i = 0; i < 100; i++) {
      expect((await call('POST', '/__sandbox/scenarios', { name: `up${i}` })).status).toBe(201)
    }
    const more = await call('POST', '/__sandbox/scenarios', { name: 'up100' })
    expect(more.status).toBe(400)
    expect((more.body as { details: string[] }).details[0]).toMatch(
      /^at most 100 scenarios are added after the start/,
    )
    expect((await call('POST', '/__sandbox/scenarios', { name: 'up3' })).status).toBe(201)
  })
})

describe('a reset to default brings any session back', () => {
  it('after a run of control calls, an operation answers as in a new session', async () => {
    const { call } = start()
    const token = await hostToken(call)
    const decline = (session: string) =>
      call('POST', `/bookings/${anchors.bookings.pending}/decline`, {}, session, token)
    await call('POST', '/__sandbox/clock', { now: '9999-12-31T00:00:00Z' })
    await call('POST', '/__sandbox/faults', { path: '/bookings/:id/decline', status: 503 })
    await call('POST', '/__sandbox/snapshots', { name: 'odd' })
    await call('POST', '/__sandbox/clock', { advanceSeconds: -6.15e16 })
    expect((await decline('qa')).status).toBe(503)
    expect((await call('POST', '/__sandbox/reset', { scenario: 'default' })).status).toBe(200)
    const afterReset = await decline('qa')
    const fresh = await decline('never-used')
    expect(afterReset.status).toBe(201)
    expect(withoutTimes(afterReset.body)).toEqual(withoutTimes(fresh.body))
  })
})

function withoutTimes(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace(/"\d{4}-\d\d-\d\dT[^"]*"/g, '"<time>"'))
}
