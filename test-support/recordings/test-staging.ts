/**
 * @module
 * Test helper: a stand-in for a staging backend's state, with ids the built-in scenarios do
 * not have, and a session clicked through it (every operation, successes and refusals), so
 * that tests record it and learn a scenario from the recording.
 */

import {
  type PersonaCredentials,
  type PlainRequest,
  signInWith,
} from '../../mocks/sandbox-client/sandbox-client.ts'
import { defineScenario } from '../../mocks/scenarios/scenario-file.ts'

export const STAGING_HOST = 'usr_2b9e41'
export const STAGING_GUEST = 'usr_g7c0d2'
export const STAGING_ADMIN = 'usr_ad0m55'
export const STAGING_BOOKING = 'bkg_7f3a9c'

const credentials: Record<string, string> = {
  [STAGING_HOST]: 'rt_sofia.c3RhZ2luZy1ob3N0',
  [STAGING_GUEST]: 'rt_milan.c3RhZ2luZy1ndWVzdA',
  [STAGING_ADMIN]: 'rt_ines.c3RhZ2luZy1hZG1pbg',
}

const user = (publicId: string, displayName: string, roles: Array<'host' | 'guest' | 'admin'>) => ({
  publicId,
  email: `${displayName.split(' ')[0]!.toLowerCase()}@staging.example.com`,
  displayName,
  roles,
  createdAt: '2026-03-02T10:00:00.000Z',
  refreshToken: credentials[publicId]!,
  idpCode: `idp_${publicId}`,
  refreshTokenRevokedAt: null,
})

const slot = { startsAt: '2026-07-01T09:00:00.000Z', endsAt: '2026-07-01T13:00:00.000Z' }

/** The staging backend's state: a restricted host, a guest, an admin, and their records. */
export const stagingScenario = defineScenario({
  name: 'staging',
  description: 'What a staging backend holds: ids no built-in scenario has',
  extends: 'empty',
  add: {
    users: [
      user(STAGING_HOST, 'Sofia Brandt', ['host']),
      user(STAGING_GUEST, 'Milan Kovač', ['guest']),
      user(STAGING_ADMIN, 'Ines Duarte', ['admin']),
    ],
    paymentAccounts: [
      {
        userId: STAGING_HOST,
        payouts_enabled: false,
        charges_enabled: true,
        disabled_reason: 'requirements.past_due',
        requirements: {
          past_due: ['external_account', 'individual.verification.document'],
          currently_due: ['external_account'],
          pending_verification: [],
          eventually_due: ['company.tax_id'],
        },
      },
    ],
    venues: [
      {
        id: 'ven_c4n4l',
        name: 'Canal Loft',
        city: 'Utrecht',
        ownerId: STAGING_HOST,
        claimStatus: 'claimed',
        contactEmail: 'loft@staging.example.com',
      },
      {
        id: 'ven_u77',
        name: 'Old Mill',
        city: 'Delft',
        ownerId: null,
        claimStatus: 'unclaimed',
        contactEmail: 'mill@staging.example.com',
      },
    ],
    bookings: [
      { id: STAGING_BOOKING, status: 'pending', hostId: STAGING_HOST },
      { id: 'bkg_8e21aa', status: 'accepted', hostId: STAGING_HOST },
      { id: 'bkg_55p41d', status: 'paid', hostId: STAGING_HOST },
      { id: 'bkg_0th3r', status: 'pending', hostId: 'usr_host' },
    ].map((booking) => ({
      ...booking,
      listingId: 'ven_c4n4l',
      guestId: STAGING_GUEST,
      ...slot,
      amount: 240,
      currency: 'EUR',
      declineReason: null,
    })) as Array<{
      id: string
      status: 'pending'
      hostId: string
      listingId: string
      guestId: string
      startsAt: string
      endsAt: string
      amount: number
      currency: string
      declineReason: null
    }>,
    reviews: [
      {
        id: 'rev_9d1',
        listingId: 'ven_c4n4l',
        authorId: STAGING_GUEST,
        rating: 4,
        text: 'Bright room, quiet street.',
        status: 'pending',
        reason: null,
      },
    ],
    contracts: [
      {
        id: 'ctr_3c5e',
        bookingId: 'bkg_8e21aa',
        partyIds: [STAGING_HOST, STAGING_GUEST],
        signatures: [],
        status: 'pending',
      },
    ],
    notifications: [
      {
        id: 'ntf_91ab77',
        userId: STAGING_HOST,
        kind: 'booking.requested',
        title: 'New booking request',
        body: 'Milan asked for Canal Loft.',
        createdAt: '2026-05-30T08:00:00.000Z',
        readAt: null,
        archivedAt: null,
      },
    ],
    ambassadorApplications: [
      {
        email: 'sofia.applicant@staging.example.com',
        fullName: 'Sofia Brandt',
        status: 'pending',
        submittedAt: '2026-05-01T08:00:00.000Z',
        decidedAt: null,
        note: null,
      },
    ],
  },
})

/** One step of the session: who calls (a user id), what, and the status staging answers. */
export interface StagingStep {
  as?: string
  method: 'GET' | 'POST'
  url: string
  body?: unknown
  status: number
}

const host = STAGING_HOST
const admin = STAGING_ADMIN

/** The session, in order. */
export const stagingSteps: readonly StagingStep[] = [
  { method: 'POST', url: '/auth/idp/complete', body: { code: `idp_${STAGING_HOST}` }, status: 201 },
  { method: 'POST', url: '/auth/idp/complete', body: { code: 'idp_expired' }, status: 401 },
  { as: host, method: 'GET', url: '/payprov/account-status', status: 200 },
  {
    as: host,
    method: 'POST',
    url: `/bookings/${STAGING_BOOKING}/decline?dryRun=true`,
    body: {},
    status: 201,
  },
  {
    as: host,
    method: 'POST',
    url: `/bookings/${STAGING_BOOKING}/decline`,
    body: { reason: 'Closed for works' },
    status: 201,
  },
  {
    as: host,
    method: 'POST',
    url: '/bookings/bkg_8e21aa/decline?dryRun=true',
    body: {},
    status: 409,
  },
  {
    as: host,
    method: 'POST',
    url: '/bookings/bkg_0th3r/decline?dryRun=true',
    body: {},
    status: 403,
  },
  {
    as: host,
    method: 'POST',
    url: '/bookings/bkg_n0pe/decline?dryRun=true',
    body: {},
    status: 404,
  },
  { as: host, method: 'POST', url: '/notifications/ntf_91ab77/archive', body: {}, status: 201 },
  {
    as: host,
    method: 'POST',
    url: '/notifications/ntf_91ab77/archive?dryRun=true',
    body: {},
    status: 409,
  },
  {
    as: host,
    method: 'POST',
    url: '/contracts/ctr_3c5e/sign',
    body: { fullName: 'Sofia Brandt' },
    status: 201,
  },
  {
    as: host,
    method: 'POST',
    url: '/contracts/ctr_3c5e/sign?dryRun=true',
    body: { fullName: 'Sofia Brandt' },
    status: 409,
  },
  { as: host, method: 'POST', url: `/users/${STAGING_GUEST}/follow`, body: {}, status: 201 },
  {
    as: host,
    method: 'POST',
    url: `/users/${STAGING_GUEST}/follow?dryRun=true`,
    body: {},
    status: 409,
  },
  { as: host, method: 'POST', url: '/venues/ven_u77/send-claim-email', body: {}, status: 201 },
  {
    as: host,
    method: 'POST',
    url: '/venues/ven_c4n4l/send-claim-email?dryRun=true',
    body: {},
    status: 409,
  },
  {
    as: STAGING_GUEST,
    method: 'POST',
    url: '/checkout/create-session',
    body: { bookingId: 'bkg_8e21aa' },
    status: 201,
  },
  {
    as: host,
    method: 'POST',
    url: '/checkout/create-session',
    body: { bookingId: 'bkg_8e21aa' },
    status: 403,
  },
  {
    method: 'POST',
    url: '/payprov/webhook/test-refund',
    body: { bookingId: 'bkg_55p41d', amount: 40 },
    status: 201,
  },
  {
    method: 'POST',
    url: '/payprov/webhook/test-refund',
    body: { bookingId: 'bkg_55p41d' },
    status: 409,
  },
  { as: admin, method: 'POST', url: '/admin/reviews/ven_c4n4l/approve', body: {}, status: 201 },
  {
    as: admin,
    method: 'POST',
    url: '/admin/reviews/ven_c4n4l/reject?dryRun=true',
    body: {},
    status: 409,
  },
  {
    as: host,
    method: 'POST',
    url: '/admin/reviews/ven_c4n4l/approve?dryRun=true',
    body: {},
    status: 403,
  },
  {
    as: admin,
    method: 'POST',
    url: '/admin/ambassadors/applications/sofia.applicant@staging.example.com/status',
    body: { status: 'approved' },
    status: 201,
  },
  { as: STAGING_GUEST, method: 'GET', url: '/payprov/account-status', status: 404 },
  {
    as: host,
    method: 'POST',
    url: `/bookings/${STAGING_BOOKING}/decline?dryRun=true`,
    body: {},
    status: 409,
  },
]

/**
 * Runs the session through `send` (each user signed in once with its refresh token, as an
 * app does) and returns each step's status.
 */
export async function runStagingSession(
  send: (request: PlainRequest) => Promise<{ status: number; body: unknown }>,
): Promise<number[]> {
  const tokens = new Map<string, string>()
  const statuses: number[] = []
  for (const step of stagingSteps) {
    const headers: Record<string, string> = {}
    if (step.as) {
      let token = tokens.get(step.as)
      if (!token) {
        token = await signInWith(send, {
          key: step.as as PersonaCredentials['key'],
          refreshToken: credentials[step.as]!,
        })
        tokens.set(step.as, token)
      }
      headers.authorization = `Bearer ${token}`
    }
    if (step.body !== undefined) headers['content-type'] = 'application/json'
    const answer = await send({
      method: step.method,
      url: step.url,
      headers,
      ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
    })
    statuses.push(answer.status)
  }
  return statuses
}
