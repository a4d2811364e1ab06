/**
 * @module
 * Listings area: sending a claim e-mail for a venue (row 4).
 */
import { defineOperation } from '../core/operation.ts'
import { email } from '../model/shapes.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, sendEmail } from './side-effects.ts'

export const sendVenueClaimEmail = defineOperation({
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
      {
        kind: 'exists',
        name: 'venue',
        collection: 'venues',
        key: ({ params }) => params.listingId!,
        message: ({ params }) => `Venue "${params.listingId}" not found`,
      },
      {
        kind: 'noneOf',
        record: 'venue',
        field: 'claimStatus',
        values: ['claimed'],
        message: (venue) => `Venue "${venue.id}" is already claimed`,
      },
    ],
    effects: [{ update: 'venue', set: { claimStatus: 'claim_requested' } }],
    after: ({ store, now, body, records: { venue } }) =>
      sendEmail(store, now, {
        to: (body.email as string | undefined) ?? venue.contactEmail,
        subject: `Claim ${venue.name} on the platform`,
        kind: 'venue.claim',
      }),
    answer: acknowledgement,
  },
})
