/**
 * @module
 * Listings area: sending a claim e-mail for a venue (row 4).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { email } from '../model/shapes.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, sendEmail } from './side-effects.ts'

const venue = rulesOn('venues', 'venue')

export const sendVenueClaimEmail = defineBuiltInOperation({
  id: 'sendVenueClaimEmail',
  row: 4,
  method: 'POST',
  path: '/venues/{listingId}/send-claim-email',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ listingId: nonEmpty() }),
  body: z.strictObject({ email: z.optional(email()) }),
  rules: {
    requires: [
      venue.exists({
        key: ({ params }) => params.listingId!,
        message: ({ params }) => `Venue "${params.listingId}" not found`,
      }),
      venue.noneOf('claimStatus', ['claimed'], ({ id }) => `Venue "${id}" is already claimed`),
    ],
    effects: [venue.update({ set: { claimStatus: 'claim_requested' } })],
    after: ({ store, now, body, records }) =>
      sendEmail(store, now, {
        to: (body.email as string | undefined) ?? venue.of({ records }).contactEmail,
        subject: `Claim ${venue.of({ records }).name} on the platform`,
        kind: 'venue.claim',
      }),
    answer: acknowledgement,
  },
})
