/**
 * The order of refusals (docs/decisions/0012-order-of-refusals.md): a request refused for two
 * reasons gets the refusal of the earlier stage. The body parser (413, 415, malformed JSON),
 * then the token (401), then the role (403), then validation of the query and the body (400),
 * then the operation (404, 409).
 */
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
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
    const response = await api.call(decline, { body: { reason: 'x'.repeat(101 * 1024) } })
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('answers 415 to a body that is not JSON without a token', async () => {
    const response = await api.call(decline, {
      body: 'reason=late',
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })

  it('answers 400 to malformed JSON without a token', async () => {
    const response = await api.call(decline, { body: '{"reason": ' })
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Malformed JSON in request body')
  })

  it('journals the dryRun of a request the body parser refused', async () => {
    const response = await api.call(`${decline}?dryRun=true`, { body: '{"reason": ' })
    expect(response.status).toBe(400)
    const [entry] = sandbox.journal.list().slice(-1)
    expect(entry).toMatchObject({ operationId: 'declineBooking', status: 400, dryRun: true })
  })
})

describe('401 before 403 before 400', () => {
  it('answers 401 to no token and a body that fails its schema', async () => {
    const response = await api.call(decline, { body: { reason: 5, extra: true } })
    expect(response).toMatchObject({ status: 401, body: missingToken })
    expect(await writes()).toBe(0)
  })

  it('answers 401 to no token and a dryRun that is neither true nor false', async () => {
    const response = await api.call(`${decline}?dryRun=maybe`, { body: {} })
    expect(response).toMatchObject({ status: 401, body: missingToken })
  })

  it('answers 401 to a malformed Authorization header and an array body', async () => {
    const response = await api.call(decline, { authorization: 'Token abc', body: '[1]' })
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Malformed Authorization header: expected "Bearer <token>"')
  })

  it('answers 401 to no token on an admin operation with a body that fails its schema', async () => {
    const response = await api.call(approve, { body: { reason: 5 } })
    expect(response).toMatchObject({ status: 401, body: missingToken })
  })

  it('answers 403 to the wrong role and a body that fails its schema', async () => {
    const response = await api.call(approve, { as: 'host', body: { reason: 5 } })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
    expect(await writes()).toBe(0)
  })

  it('answers 403 to the wrong role and a dryRun that is neither true nor false', async () => {
    const response = await api.call(`${approve}?dryRun=maybe`, { as: 'guest', body: {} })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
  })

  it('answers 403 to the wrong role and a path parameter that fails its schema', async () => {
    const response = await api.call('/admin/ambassadors/applications/not-an-address/status', {
      as: 'host',
      body: { status: 'approved' },
    })
    expect(response).toMatchObject({ status: 403, body: notAdmin })
  })
})

describe('400 before the operation', () => {
  it('lists the query and the body problems of a signed-in call in one 400', async () => {
    const response = await api.call(`${decline}?dryRun=maybe`, {
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
    const response = await api.call('/bookings/bkg_unknown/decline', {
      as: 'host',
      body: { reason: 5 },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['reason must be a string'])
  })

  it('answers 404 to an unknown booking with a valid body', async () => {
    const response = await api.call('/bookings/bkg_unknown/decline', { as: 'host', body: {} })
    expect(response.status).toBe(404)
  })
})
