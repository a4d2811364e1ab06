/**
 * The order of refusals (docs/decisions/0012-order-of-refusals.md): a request refused for two
 * reasons gets the refusal of the earlier stage. The body parser (413, 415, malformed JSON),
 * then the token (401), then the role (403), then validation of the query and the body (400),
 * then the operation (404, 409). `Prefer: example=` and a code other than a gateway's replace
 * the operation's outcome, not its checks; a gateway's code and a delay come first.
 */
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { recordedExamples, recordedRequestUrl } from '../../spec/examples/index.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const decline = `/bookings/${anchors.bookings.pending}/decline`
const approve = '/admin/reviews/ven_pending_review/approve'
const missingToken = {
  message: 'Missing bearer token: send Authorization: Bearer <token>',
  code: 'UNAUTHORIZED',
}
const notAdmin = { message: 'This operation requires the admin role', code: 'FORBIDDEN' }

async function writes() {
  return (await sandbox.store()).writeCount()
}

describe('the body parser before the guards', () => {
  it('answers 413 to an oversized body without a token', async () => {
    const response = await api.request(decline, { body: { reason: 'x'.repeat(101 * 1024) } })
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('answers 415 to a body that is not JSON without a token', async () => {
    const response = await api.request(decline, {
      body: 'reason=late',
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })

  it('answers 400 to malformed JSON without a token', async () => {
    const response = await api.request(decline, { body: '{"reason": ' })
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Malformed JSON in request body')
  })

  it('journals the dryRun of a request the body parser refused', async () => {
    const response = await api.request(`${decline}?dryRun=true`, { body: '{"reason": ' })
    expect(response.status).toBe(400)
    const [entry] = sandbox.journal.list().slice(-1)
    expect(entry).toMatchObject({ operationId: 'declineBooking', status: 400, dryRun: true })
  })
})

describe('401 before 403 before 400', () => {
  it('answers 401 to no token and a body that fails its schema', async () => {
    const response = await api.request(decline, { body: { reason: 5, extra: true } })
    expect(response).toMatchObject({ status: 401, body: missingToken })
    expect(await writes()).toBe(0)
  })

  it('answers 401 to no token and a dryRun that is neither true nor false', async () => {
    const response = await api.request(`${decline}?dryRun=maybe`, { body: {} })
    expect(response).toMatchObject({ status: 401, body: missingToken })
  })

  it('answers 401 to a malformed Authorization header and an array body', async () => {
    const response = await api.request(decline, { authorization: 'Token abc', body: '[1]' })
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Malformed Authorization header: expected "Bearer <token>"')
  })

  it('answers 401 to no token on an admin operation with a body that fails its schema', async () => {
    const response = await api.request(approve, { body: { reason: 5 } })
    expect(response).toMatchObject({ status: 401, body: missingToken })
  })

  it('answers 403 to the wrong role and a body that fails its schema', async () => {
    const response = await api.request(approve, { as: 'host', body: { reason: 5 } })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
    expect(await writes()).toBe(0)
  })

  it('answers 403 to the wrong role and a dryRun that is neither true nor false', async () => {
    const response = await api.request(`${approve}?dryRun=maybe`, { as: 'guest', body: {} })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
  })

  it('answers 403 to the wrong role and a path parameter that fails its schema', async () => {
    const response = await api.request('/admin/ambassadors/applications/not-an-address/status', {
      as: 'host',
      body: { status: 'approved' },
    })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
  })
})

describe('400 before the operation', () => {
  it('lists the query and the body problems of a signed-in call in one 400', async () => {
    const response = await api.request(`${decline}?dryRun=maybe`, {
      as: 'host',
      body: { reason: 5 },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'dryRun must be one of: true, false',
      'reason must be a string',
    ])
  })

  it('answers 400, not 404, to an unknown booking with a body that fails its schema', async () => {
    const response = await api.request('/bookings/bkg_unknown/decline', {
      as: 'host',
      body: { reason: 5 },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['reason must be a string'])
  })

  it('answers 404 to an unknown booking with a valid body', async () => {
    const response = await api.request('/bookings/bkg_unknown/decline', { as: 'host', body: {} })
    expect(response.status).toBe(404)
  })
})

describe('Prefer replaces the outcome, not the checks', () => {
  const successes = recordedExamples.filter(
    (example) => example.request.as !== undefined && example.response.status < 300,
  )
  const operations = new Set(successes.map((example) => example.operationId))

  it('answers 401 to Prefer: example= without a token, on every operation that needs one', async () => {
    expect(operations.size).toBe(10)
    for (const operationId of operations) {
      const example = successes.find((success) => success.operationId === operationId)!
      const response = await api.request(recordedRequestUrl(example), {
        method: example.method,
        ...(example.method === 'POST' ? { body: example.request.body ?? {} } : {}),
        headers: { prefer: `example=${example.name}` },
      })
      expect(response, operationId).toMatchObject({ status: 401, body: missingToken })
      expect(response.headers.get('x-sandbox-fault'), operationId).toBeNull()
      expect(sandbox.journal.list().at(-1)?.fault, operationId).toBeUndefined()
    }
    expect(await writes()).toBe(0)
  })

  it('answers 401 to a Prefer code that is not a gateway’s, or an invalid Prefer, without a token', async () => {
    for (const prefer of ['code=409', 'code=201', 'example=nope', 'code=418, delay=x']) {
      const response = await api.request(decline, { body: {}, headers: { prefer } })
      expect(response, prefer).toMatchObject({ status: 401, body: missingToken })
    }
    const signedIn = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'example=nope' },
    })
    expect(signedIn).toMatchObject({ status: 400, body: { message: 'Invalid Prefer header' } })
  })

  it('answers 403 to the wrong role with Prefer: example=', async () => {
    const response = await api.request(approve, {
      as: 'guest',
      body: {},
      headers: { prefer: 'example=approvePendingReview' },
    })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
  })

  it('answers 400 to an invalid body or dryRun with Prefer: example=', async () => {
    const body = await api.request(decline, {
      as: 'host',
      body: { reason: 5 },
      headers: { prefer: 'example=declinePendingBooking' },
    })
    expect(body.status).toBe(400)
    expect(body.body.details).toEqual(['reason must be a string'])
    const refresh = await api.request('/auth/refresh?dryRun=AAA', {
      body: { refreshToken: 'rt_x.y' },
      headers: { prefer: 'example=hostSignsIn' },
    })
    expect(refresh.status).toBe(400)
    expect(refresh.body.details).toEqual(['dryRun must be one of: true, false'])
  })

  it('answers the example in place of a precondition, with dryRun too, and writes nothing', async () => {
    const accepted = `/bookings/${anchors.bookings.accepted}/decline?dryRun=true`
    const response = await api.request(accepted, {
      as: 'host',
      body: {},
      headers: { prefer: 'example=declinePendingBooking' },
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-sandbox-fault')).toBe('prefer')
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      status: 201,
      dryRun: true,
      persona: 'host',
      fault: 'prefer',
    })
    expect(await writes()).toBe(0)
  })

  it("answers a gateway's code before the token, after a delay that comes first", async () => {
    const gateway = await api.request(decline, {
      body: { reason: 5 },
      headers: { prefer: 'code=503' },
    })
    expect(gateway.status).toBe(503)
    expect(gateway.body.code).toBe('SERVICE_UNAVAILABLE')
    const delayed = await api.request(decline, {
      body: {},
      headers: { prefer: 'delay=1, example=declinePendingBooking' },
    })
    expect(delayed).toMatchObject({ status: 401, body: missingToken })
    // Marked: the delay was applied before the token was checked.
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 401, fault: 'prefer' })
    expect(await writes()).toBe(0)
  })

  it('leaves a request carrying Prefer to its checks, not to the fault rules', async () => {
    const rule = { path: '/bookings/:id/decline', status: 500 }
    expect((await api.request('/__sandbox/faults', { body: rule })).status).toBe(201)
    const anonymous = await api.request(decline, {
      body: {},
      headers: { prefer: 'example=declinePendingBooking' },
    })
    expect(anonymous).toMatchObject({ status: 401, body: missingToken })
    const signedIn = await api.request(decline, {
      as: 'host',
      body: {},
      headers: { prefer: 'example=bookingNotPending' },
    })
    expect(signedIn.status).toBe(409)
    // Without Prefer, the rule answers first, as before.
    expect((await api.request(decline, { body: {} })).status).toBe(500)
  })
})
