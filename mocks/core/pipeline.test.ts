import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const decline = `/bookings/${anchors.bookings.pending}/decline`

describe('request bodies', () => {
  it('returns 400 for malformed JSON', async () => {
    const response = await api.request(decline, { as: 'host', body: '{"reason": ' })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      message: 'Malformed JSON in request body',
      code: 'BAD_REQUEST',
      details: ['body must be valid JSON'],
    })
  })

  it('returns 400 for a JSON array body', async () => {
    const response = await api.request(decline, { as: 'host', body: '[1,2]' })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['body must be an object'])
  })

  it('returns 400 for a JSON null body', async () => {
    expect((await api.request(decline, { as: 'host', body: 'null' })).status).toBe(400)
  })

  it('returns 413 above 100 kB and writes nothing', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: { reason: 'x'.repeat(101 * 1024) },
    })
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('pending')
  })

  it('returns 415 for a body that is not JSON', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: 'reason=late',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })

  it('reads the media type whatever its case, spaces and parameters', async () => {
    const statuses: Record<string, number> = {}
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=utf-8',
      'Application/JSON; charset=utf-8',
      ' application/json ',
      'application/merge-patch+json',
      'application/jsonx',
      'application/json-seq',
      'text/plain; type=application/json',
    ]) {
      const response = await api.request(`${decline}?dryRun=true`, {
        as: 'host',
        body: '{"reason":"late"}',
        headers: { 'content-type': type },
      })
      statuses[type] = response.status
    }
    expect(statuses).toEqual({
      'application/json': 201,
      'application/json; charset=utf-8': 201,
      'application/json;charset=utf-8': 201,
      'Application/JSON; charset=utf-8': 201,
      ' application/json ': 201,
      'application/merge-patch+json': 201,
      'application/jsonx': 415,
      'application/json-seq': 415,
      'text/plain; type=application/json': 415,
    })
  })

  it('treats an empty body as an empty object', async () => {
    const response = await api.request(`${decline}?dryRun=true`, { as: 'host', method: 'POST' })
    expect(response.status).toBe(201)
  })
})

describe('dryRun', () => {
  it('returns 400 for an unknown value, naming the allowed ones', async () => {
    const response = await api.request(`${decline}?dryRun=1`, { as: 'host', body: {} })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      message: 'Validation failed',
      code: 'BAD_REQUEST',
      details: ['dryRun must be one of: true, false'],
    })
  })

  it('performs the write when absent and records it in the journal', async () => {
    expect((await api.request(decline, { as: 'host', body: {} })).status).toBe(201)
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
    const entry = sandbox.journal.list().at(-1)
    expect(entry).toMatchObject({ method: 'POST', path: decline, status: 201, dryRun: false })
  })

  it('journals dryRun=true calls as such', async () => {
    await api.request(`${decline}?dryRun=true`, { as: 'host', body: {} })
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 201, dryRun: true })
  })
})

describe('routing', () => {
  it('returns a 404 error body for an unknown route', async () => {
    // msw lets unknown routes through to the network, so ask the core directly.
    const response = await sandbox.handle({ method: 'GET', url: '/nowhere?x=1', headers: {} })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ message: 'Cannot GET /nowhere', code: 'NOT_FOUND' })
    expect(sandbox.journal.list().at(-1)).toMatchObject({ path: '/nowhere', status: 404 })
  })

  it('returns 405 with Allow for a known path with the wrong method', async () => {
    const response = await api.request('/__sandbox/reset', { method: 'GET' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST, OPTIONS')
    expect(response.body.code).toBe('METHOD_NOT_ALLOWED')
  })
})

describe('failures', () => {
  it('answers 500 with an error body when an operation throws, and keeps serving', async () => {
    const store = await sandbox.store('broken')
    store.bookings.get = () => {
      throw new Error('disk on fire')
    }
    const broken = await api.request(decline, { as: 'host', body: {}, session: 'broken' })
    expect(broken.status).toBe(500)
    expect(broken.body).toEqual({
      message: 'The sandbox failed to handle this request',
      code: 'INTERNAL_SERVER_ERROR',
    })
    expect((await api.request(`${decline}?dryRun=true`, { as: 'host', body: {} })).status).toBe(201)
  })

  it('returns 400 for an invalid session id', async () => {
    const response = await api.request('/payprov/account-status', {
      authorization: `Bearer ${await api.accessToken('host')}`,
      session: 'bad id!',
    })
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Invalid sandbox session id')
  })
})
