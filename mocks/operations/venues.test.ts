import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const v = anchors.venues
const path = (id: string, query = '') => `/venues/${id}/send-claim-email${query}`
const venue = async (id: string) => (await api.collection('venues')).find((x) => x.id === id)

describe('POST /venues/{listingId}/send-claim-email', () => {
  it('moves an unclaimed venue to claim_requested and e-mails its contact', async () => {
    const response = await api.request(path(v.unclaimed), { as: 'guest', body: {} })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    expect((await venue(v.unclaimed)).claimStatus).toBe('claim_requested')
    expect(await api.collection('outbox')).toEqual([
      expect.objectContaining({ to: 'ven-unclaimed@venues.sandbox.test', kind: 'venue.claim' }),
    ])
  })

  it('sends to the given e-mail and allows a resend', async () => {
    const body = { email: 'owner@example.org' }
    expect((await api.request(path(v.claimRequested), { as: 'host', body })).status).toBe(201)
    expect((await api.request(path(v.claimRequested), { as: 'host', body })).status).toBe(201)
    const outbox = await api.collection('outbox')
    expect(outbox.map((m) => m.to)).toEqual(['owner@example.org', 'owner@example.org'])
  })

  it('takes every address of the document’s e-mail pattern, and refuses the others', async () => {
    // The outbox checks its recipient by the same rule: an address the operation takes is
    // never refused when the e-mail is written (it was a 500).
    const body = { email: 'a+b{x}@Example.org' }
    expect((await api.request(path(v.claimRequested), { as: 'host', body })).status).toBe(201)
    expect((await api.collection('outbox')).map((m) => m.to)).toEqual(['a+b{x}@Example.org'])
    const refused = await api.request(path(v.claimRequested), {
      as: 'host',
      body: { email: '0@com' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.details).toEqual(['email must be an email'])
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const response = await api.request(path(v.unclaimed, '?dryRun=true'), { as: 'guest', body: {} })
    expect(response.status).toBe(201)
    expect((await venue(v.unclaimed)).claimStatus).toBe('unclaimed')
    expect(await api.collection('outbox')).toEqual([])
  })

  it('returns 409 for a claimed venue', async () => {
    const response = await api.request(path(v.claimed), { as: 'guest', body: {} })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it('returns 404 for an unknown venue', async () => {
    expect((await api.request(path('ven_missing'), { as: 'guest', body: {} })).status).toBe(404)
  })

  it('returns 400 for an invalid e-mail', async () => {
    const response = await api.request(path(v.unclaimed), { as: 'guest', body: { email: 'nope' } })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['email must be an email'])
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path(v.unclaimed), { body: {} })).status).toBe(401)
  })
})
