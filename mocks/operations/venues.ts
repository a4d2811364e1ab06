/**
 * @module
 * Listings area: sending a claim e-mail for a venue (row 4).
 */
import { conflict, notFound } from '../core/errors.ts'
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
  async run({ params, body, store, now }) {
    const venue = store.venues.get(params.listingId)
    if (!venue) throw notFound(`Venue "${params.listingId}" not found`)
    if (venue.claimStatus === 'claimed') throw conflict(`Venue "${venue.id}" is already claimed`)
    return {
      body: acknowledgement,
      async apply() {
        await store.venues.update(venue.id, (draft) => {
          draft.claimStatus = 'claim_requested'
        })
        await sendEmail(store, now, {
          to: body.email ?? venue.contactEmail,
          subject: `Claim ${venue.name} on the platform`,
          kind: 'venue.claim',
        })
      },
    }
  },
})
