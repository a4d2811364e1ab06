/**
 * Listings: sending a claim e-mail for a venue (row 4).
 *
 * @module
 */
import {
  invalidBody,
  type OperationProfile,
  replay,
  sharedErrorCases,
  successRequest,
  withDryRun,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

const claim: OperationProfile = {
  operationId: 'sendVenueClaimEmail',
  success: 'sendClaimEmail',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  writes: ['venues', 'outbox'],
}

const send = replay(claim, 'sendClaimEmail', {
  changes: [
    {
      collection: 'venues',
      where: { id: 'ven_unclaimed' },
      before: { count: 1, every: { claimStatus: 'unclaimed' } },
      after: { count: 1, every: { claimStatus: 'claim_requested' } },
    },
    {
      collection: 'outbox',
      where: { to: 'ven-unclaimed@venues.sandbox.test', kind: 'venue.claim' },
      before: { count: 0 },
      after: { count: 1 },
    },
  ],
})

export const venueCases: ConformanceCase[] = [
  send,
  withDryRun(claim, send),
  {
    name: 'sendVenueClaimEmail: 201 resends the claim e-mail to the address given',
    operationId: 'sendVenueClaimEmail',
    request: {
      ...successRequest(claim),
      url: '/venues/ven_claim_requested/send-claim-email',
      body: { email: 'owner@old-mill.sandbox.test' },
    },
    expect: { status: 201, body: { success: true } },
    changes: [
      {
        collection: 'venues',
        where: { id: 'ven_claim_requested' },
        before: { count: 1, every: { claimStatus: 'claim_requested' } },
        after: { count: 1, every: { claimStatus: 'claim_requested' } },
      },
      {
        collection: 'outbox',
        where: { to: 'owner@old-mill.sandbox.test' },
        before: { count: 0 },
        after: { count: 1 },
      },
    ],
  },
  replay(claim, 'unknownVenue'),
  replay(claim, 'alreadyClaimed'),
  invalidBody(claim, { email: 'not-an-email' }, ['email must be an email'], ['merged']),
  ...sharedErrorCases(claim),
]
