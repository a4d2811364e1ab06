import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupSandboxServer } from '../../mocks/runtimes/node/index.ts'
import type { ConformanceCase } from '../../spec/cases/types.ts'
import { normalizeBody } from './compare.ts'
import { createConformanceRunner } from './run-case.ts'

const ORIGIN = 'http://runner.sandbox.test'
const { server } = setupSandboxServer({ baseUrl: ORIGIN })
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

const decline: ConformanceCase = {
  name: 'declineBooking: 201',
  operationId: 'declineBooking',
  request: { method: 'POST', url: '/bookings/bkg_pending/decline', as: 'host', body: {} },
  expect: { status: 201, body: { success: true } },
  changes: [
    {
      collection: 'bookings',
      where: { id: 'bkg_pending' },
      before: { count: 1, every: { status: 'pending' } },
      after: { count: 1, every: { status: 'declined' } },
    },
  ],
}

describe('createConformanceRunner', () => {
  const runner = createConformanceRunner({ baseUrl: ORIGIN })

  it('passes a case the sandbox answers as expected', async () => {
    expect((await runner.run(decline)).failures).toEqual([])
  })

  it('starts every case from a freshly reset session', async () => {
    await runner.run(decline)

    expect((await runner.run(decline)).failures).toEqual([])
  })

  it('reports a wrong status, a wrong body and a state change that did not happen', async () => {
    const outcome = await runner.run({
      ...decline,
      request: { ...decline.request, url: '/bookings/bkg_accepted/decline' },
      expect: { status: 201, body: { success: true } },
      changes: [{ ...decline.changes![0]!, where: { id: 'bkg_accepted' } }],
    })

    expect(outcome.status).toBe(409)
    expect(outcome.failures).toEqual([
      'status: expected 201, got 409',
      expect.stringMatching(/^body: expected \{"success":true\}, got \{"message":/),
      expect.stringMatching(
        /^bookings where \{"id":"bkg_accepted"\}: before, expected every record/,
      ),
      expect.stringMatching(
        /^bookings where \{"id":"bkg_accepted"\}: after, expected every record/,
      ),
    ])
  })

  it('reports a collection that changed when it should not', async () => {
    const outcome = await runner.run({ ...decline, changes: [], unchanged: ['bookings'] })

    expect(outcome.failures).toEqual(['bookings: expected no change, but the collection changed'])
  })

  it('reports a body that does not have the expected shape', async () => {
    const { z } = await import('zod')
    const outcome = await runner.run({
      ...decline,
      changes: [],
      expect: { status: 201, shape: z.strictObject({ ok: z.boolean() }) },
    })

    expect(outcome.failures).toEqual([expect.stringMatching(/^body shape: ok: /)])
  })

  it('skips header expectations on headers the runtime hides', async () => {
    const hiding = createConformanceRunner({ baseUrl: ORIGIN, hiddenHeaders: ['set-cookie'] })
    const outcome = await hiding.run({
      ...decline,
      changes: [],
      expect: { status: 201, headers: { 'set-cookie': 'never sent' } },
    })

    expect(outcome.failures).toEqual([])
  })
})

describe('normalizeBody', () => {
  it('replaces access tokens and timestamps, and nothing else', () => {
    expect(
      normalizeBody({
        accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
        at: ['2026-06-01T12:00:00.000Z', 'bkg_pending'],
      }),
    ).toEqual({ accessToken: '<jwt>', at: ['<timestamp>', 'bkg_pending'] })
  })
})
