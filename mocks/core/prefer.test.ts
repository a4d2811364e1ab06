import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const decline = `/bookings/${anchors.bookings.pending}/decline`

describe('the Prefer header', () => {
  it('code=409 answers the recorded 409 and writes nothing', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'code=409' },
    })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 409, fault: 'prefer' })
  })

  it('example=<name> answers that recording, also together with its code', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'code=403, example=notTheHost' },
    })
    expect(response.status).toBe(403)
    expect(response.body.message).toBe('Only the booking’s host can decline it')
  })

  it('code without a recording answers a generic ApiErrorResponseDto', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'code=413' },
    })
    expect(response.status).toBe(413)
    expect(response.body).toEqual({
      message: 'Answered 413 as the Prefer header asked',
      code: 'PAYLOAD_TOO_LARGE',
    })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
  })

  it("code=503 answers a gateway's refusal with Retry-After, for any operation", async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'code=503' },
    })
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('1')
    expect(response.body).toEqual({
      message: 'Answered 503 as the Prefer header asked',
      code: 'SERVICE_UNAVAILABLE',
    })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      status: 503,
      fault: 'prefer',
      gateway: true,
    })

    const timedOut = await api.request('/auth/refresh', {
      body: { refreshToken: 'rt_x.y' },
      headers: { prefer: 'code=504' },
    })
    expect(timedOut.status).toBe(504)
    expect(timedOut.headers.get('retry-after')).toBeNull()
    expect(timedOut.body.code).toBe('GATEWAY_TIMEOUT')
  })

  it('delay=<ms> waits, then gives the real answer', async () => {
    const started = performance.now()
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'delay=120' },
    })
    expect(performance.now() - started).toBeGreaterThanOrEqual(110)
    expect(response.status).toBe(201)
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('declined')
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 201, fault: 'prefer' })
  })

  it('ignores preferences it does not know', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'return=minimal' },
    })
    expect(response.status).toBe(201)
    expect(sandbox.journal.list().at(-1)?.fault).toBeUndefined()
  })

  it('refuses an unknown code with the list of valid ones', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'code=418' },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'Prefer code must be one of: 201, 400, 401, 403, 404, 409, 413, 415, 429, 502, 503, 504',
    ])
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
  })

  it('refuses a code the operation does not document, such as 500', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'code=500' },
    })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      message: 'Invalid Prefer header',
      code: 'BAD_REQUEST',
      details: [
        'Prefer code must be one of: 201, 400, 401, 403, 404, 409, 413, 415, 429, 502, 503, 504',
      ],
    })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 400 })
  })

  it('refuses on /auth/refresh the 403, 404 and 409 it does not document', async () => {
    for (const code of [403, 404, 409, 500]) {
      const response = await api.request('/auth/refresh', {
        body: { refreshToken: 'rt_x.y' },
        headers: { prefer: `code=${code}` },
      })
      expect(response.status, `code=${code}`).toBe(400)
      expect(response.body.details, `code=${code}`).toEqual([
        'Prefer code must be one of: 200, 400, 401, 413, 415, 429, 502, 503, 504',
      ])
    }
    const documented = await api.request('/auth/refresh', {
      body: { refreshToken: 'rt_x.y' },
      headers: { prefer: 'code=401' },
    })
    expect(documented.status).toBe(401)
  })

  it('refuses an unknown example with the list of valid ones', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'example=nope' },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'Prefer example must be one of: declinePendingBooking, notTheHost, unknownBooking, bookingNotPending',
    ])
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 400 })
  })

  it('refuses a delay above 60 s', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'delay=60001' },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'Prefer delay must be an integer from 0 to 60000 (milliseconds)',
    ])
  })
})
