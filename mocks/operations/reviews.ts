/**
 * @module
 * Reviews area: the admin approves or rejects the pending review of a listing
 * (rows 5 and 6).
 */
import { conflict, notFound } from '../core/errors.ts'
import { defineOperation, type Operation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

function decideReview(decision: 'approved' | 'rejected', id: string, row: number): Operation {
  return defineOperation({
    id,
    row,
    method: 'POST',
    path: `/admin/reviews/{listingId}/${decision === 'approved' ? 'approve' : 'reject'}`,
    auth: 'admin',
    dryRun: true,
    successStatus: 201,
    params: z.object({ listingId: nonEmpty() }),
    body: z.strictObject({ reason: z.optional(z.string().check(z.maxLength(1000))) }),
    async run({ params, body, store, now }) {
      const venue = store.venues.get(params.listingId)
      if (!venue) throw notFound(`Listing "${params.listingId}" not found`)
      const review = store.reviews.find(
        (candidate) => candidate.listingId === venue.id && candidate.status === 'pending',
      )
      if (!review) throw conflict(`Listing "${venue.id}" has no pending review`)
      return {
        body: acknowledgement,
        async apply() {
          await store.reviews.update(review.id, (draft) => {
            draft.status = decision
            draft.reason = body.reason ?? null
          })
          await notify(store, now, {
            userId: review.authorId,
            kind: `review.${decision}`,
            title:
              decision === 'approved' ? 'Your review is published' : 'Your review was rejected',
            body: `Your review of ${venue.name} was ${decision}.`,
          })
        },
      }
    },
  })
}

export const approveReview = decideReview('approved', 'approveReview', 5)
export const rejectReview = decideReview('rejected', 'rejectReview', 6)
