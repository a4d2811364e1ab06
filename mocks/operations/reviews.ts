/**
 * @module
 * Reviews area: the admin approves or rejects the pending review of a listing
 * (rows 5 and 6).
 */
import { defineBuiltInOperation, type Operation, rulesOn } from '../core/index.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

const venue = rulesOn('venues', 'venue')
const review = rulesOn('reviews', 'review')

function decideReview(decision: 'approved' | 'rejected', id: string, row: number): Operation {
  return defineBuiltInOperation({
    id,
    row,
    method: 'POST',
    path: `/admin/reviews/{listingId}/${decision === 'approved' ? 'approve' : 'reject'}`,
    auth: 'admin',
    dryRun: true,
    successStatus: 201,
    params: z.object({ listingId: nonEmpty() }),
    body: z.strictObject({ reason: z.optional(z.string().check(z.maxLength(1000))) }),
    rules: {
      requires: [
        venue.exists({
          key: ({ params }) => params.listingId!,
          message: ({ params }) => `Listing "${params.listingId}" not found`,
        }),
        review.find(venue, {
          link: 'listingId',
          where: { status: 'pending' },
          message: ({ id }) => `Listing "${id}" has no pending review`,
        }),
      ],
      effects: [
        review.update({
          set: { status: decision },
          draft: (draft, { body }) => {
            draft.reason = (body.reason as string | undefined) ?? null
          },
        }),
      ],
      after: ({ store, now, records }) =>
        notify(store, now, {
          userId: review.of({ records }).authorId,
          kind: `review.${decision}`,
          title: decision === 'approved' ? 'Your review is published' : 'Your review was rejected',
          body: `Your review of ${venue.of({ records }).name} was ${decision}.`,
        }),
      answer: acknowledgement,
    },
  })
}

export const approveReview = decideReview('approved', 'approveReview', 5)
export const rejectReview = decideReview('rejected', 'rejectReview', 6)
