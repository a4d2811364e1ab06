import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const v = anchors.venues
const review = async (id: string) => (await api.collection('reviews')).find((x) => x.id === id)

describe.each([
  ['approve', 'approved'],
  ['reject', 'rejected'],
] as const)('POST /admin/reviews/{listingId}/%s', (action, status) => {
  const path = (listing: string, query = '') => `/admin/reviews/${listing}/${action}${query}`

  it(`marks the listing's pending review ${status} and notifies its author`, async () => {
    const response = await api.request(path(v.withPendingReview), {
      as: 'admin',
      body: { reason: 'Checked by moderation' },
    })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    expect(await review(anchors.reviews.pending)).toMatchObject({
      status,
      reason: 'Checked by moderation',
    })
    const notes = (await api.collection('notifications')).filter(
      (n) => n.userId === personaIds.guest && n.kind === `review.${status}`,
    )
    expect(notes).toHaveLength(1)
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const notesBefore = await api.collection('notifications')
    const response = await api.request(path(v.withPendingReview, '?dryRun=true'), {
      as: 'admin',
      body: {},
    })
    expect(response.status).toBe(201)
    expect((await review(anchors.reviews.pending)).status).toBe('pending')
    expect(await api.collection('notifications')).toEqual(notesBefore)
  })

  it('returns 409 for a listing without a pending review', async () => {
    const response = await api.request(path(v.reviewed), { as: 'admin', body: {} })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it('returns 409 the second time, once the review is decided', async () => {
    await api.request(path(v.withPendingReview), { as: 'admin', body: {} })
    expect((await api.request(path(v.withPendingReview), { as: 'admin', body: {} })).status).toBe(
      409,
    )
  })

  it('returns 403 for a non-admin and leaves the review pending', async () => {
    const response = await api.request(path(v.withPendingReview), { as: 'host', body: {} })
    expect(response.status).toBe(403)
    expect((await review(anchors.reviews.pending)).status).toBe('pending')
  })

  it('returns 404 for an unknown listing', async () => {
    expect((await api.request(path('ven_missing'), { as: 'admin', body: {} })).status).toBe(404)
  })

  it('returns 400 for a reason that is not a string', async () => {
    const response = await api.request(path(v.withPendingReview), {
      as: 'admin',
      body: { reason: [] },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['reason must be a string'])
  })
})
