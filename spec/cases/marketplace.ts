import {
  added,
  apiError,
  created,
  errorCase,
  NOT_NULL,
  profile,
  replays,
  succeeds,
  successRequest,
  updated,
} from './build.ts'
import { sharedErrorCases } from './shared-errors.ts'
import type { ConformanceCase } from './types.ts'

const decide = profile(
  'updateAmbassadorApplicationStatus',
  'approveApplication',
  ['ambassadorApplications', 'outbox'],
  { lacksRole: 'host' },
)
const claim = profile('sendVenueClaimEmail', 'sendClaimEmail', ['venues', 'outbox'])
const approve = profile('approveReview', 'approvePendingReview', ['reviews', 'notifications'], {
  lacksRole: 'host',
})
const reject = { ...approve, operationId: 'rejectReview', success: 'rejectPendingReview' }
const follow = profile('followUser', 'followGuest', ['follows', 'notifications'])
const decline = profile('declineBooking', 'declinePendingBooking', ['bookings', 'notifications'])
const sign = profile('signContract', 'signAsGuest', ['contracts', 'notifications'])
const checkout = profile('createCheckoutSession', 'payAcceptedBooking', ['checkoutSessions'], {
  dryRun: false,
})
const archive = profile('archiveNotification', 'archiveNotification', ['notifications'])

export const marketplaceCases: ConformanceCase[] = [
  // Ambassador: the admin decides an application (row 3).
  ...succeeds(decide, [
    updated(
      'ambassadorApplications',
      { email: 'applicant@sandbox.test' },
      { status: 'pending', decidedAt: null },
      { status: 'approved', note: 'Welcome aboard', decidedAt: NOT_NULL },
    ),
    created('outbox', { to: 'applicant@sandbox.test', kind: 'ambassador.application.approved' }),
  ]),
  ...replays(decide, 'notAnAdmin', 'noApplication', 'alreadyApproved'),
  errorCase(decide, '400 when the path is not an e-mail address', {
    request: {
      ...successRequest(decide),
      url: '/admin/ambassadors/applications/not-an-email/status',
    },
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', ['email must be an email']),
    breaks: ['merged'],
  }),
  ...sharedErrorCases(decide, { status: 'maybe' }, ['status must be one of: approved, rejected']),

  // Listings: sending a claim e-mail for a venue (row 4).
  ...succeeds(claim, [
    updated(
      'venues',
      'ven_unclaimed',
      { claimStatus: 'unclaimed' },
      { claimStatus: 'claim_requested' },
    ),
    created('outbox', { to: 'ven-unclaimed@venues.sandbox.test', kind: 'venue.claim' }),
  ]),
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
      updated(
        'venues',
        'ven_claim_requested',
        { claimStatus: 'claim_requested' },
        { claimStatus: 'claim_requested' },
      ),
      created('outbox', { to: 'owner@old-mill.sandbox.test' }),
    ],
  },
  ...replays(claim, 'unknownVenue', 'alreadyClaimed'),
  ...sharedErrorCases(claim, { email: 'not-an-email' }, ['email must be an email']),

  // Reviews: the admin approves or rejects the pending review of a listing (rows 5 and 6).
  ...succeeds(approve, [
    updated('reviews', 'rev_pending', { status: 'pending' }, { status: 'approved', reason: null }),
    added('notifications', { userId: 'usr_guest', kind: 'review.approved' }),
  ]),
  ...replays(approve, 'notAnAdmin', 'unknownListing', 'noPendingReview'),
  ...sharedErrorCases(approve, { reason: 5 }, ['reason must be a string']),
  ...succeeds(reject, [
    updated(
      'reviews',
      'rev_pending_2',
      { status: 'pending' },
      { status: 'rejected', reason: 'Mentions a private phone number' },
    ),
    added('notifications', { userId: 'usr_guest', kind: 'review.rejected' }),
  ]),
  ...replays(reject, 'notAnAdmin', 'unknownListing', 'noPendingReview'),
  ...sharedErrorCases(reject, { reason: 'x'.repeat(1001) }, [
    'reason must be shorter than or equal to 1000 characters',
  ]),

  // Follow: following a user (row 7).
  ...succeeds(follow, [
    created(
      'follows',
      { followerId: 'usr_host', followeeId: 'usr_guest' },
      { id: 'usr_host:usr_guest' },
    ),
    added('notifications', {
      userId: 'usr_guest',
      kind: 'user.followed',
      body: 'Hugo Host started following you.',
    }),
  ]),
  ...replays(follow, 'followSelf', 'unknownUser', 'alreadyFollowing'),
  ...sharedErrorCases(follow, { notify: true }, ['property notify should not exist']),

  // Bookings: the host declines a pending booking (row 8).
  ...succeeds(decline, [
    updated(
      'bookings',
      'bkg_pending',
      { status: 'pending', declineReason: null },
      { status: 'declined', declineReason: 'The venue is closed for repairs that week' },
    ),
    added('notifications', { userId: 'usr_guest', kind: 'booking.declined' }),
  ]),
  ...replays(decline, 'notTheHost', 'unknownBooking', 'bookingNotPending'),
  ...sharedErrorCases(decline, { reason: ['busy'] }, ['reason must be a string']),

  // Contracts: a party signs a contract (row 9).
  ...succeeds(sign, [
    updated(
      'contracts',
      'ctr_unsigned',
      { status: 'pending', signatures: [] },
      { status: 'pending' },
    ),
    added('notifications', { userId: 'usr_host', kind: 'contract.signed' }),
  ]),
  {
    name: 'signContract: 201 the last signature makes the contract signed',
    operationId: 'signContract',
    request: {
      method: 'POST',
      url: '/contracts/ctr_signed_by_host/sign',
      as: 'guest',
      body: { fullName: 'Gina Guest' },
    },
    expect: { status: 201, body: { success: true } },
    changes: [
      updated(
        'contracts',
        'ctr_signed_by_host',
        { status: 'pending' },
        { status: 'signed', bookingId: 'bkg_paid', id: NOT_NULL },
      ),
    ],
  },
  ...replays(sign, 'notAParty', 'unknownContract', 'alreadySigned'),
  ...sharedErrorCases(sign, {}, ['fullName is required']),

  // Checkout: the guest opens a checkout session for an accepted booking (row 10).
  ...succeeds(checkout, [
    created(
      'checkoutSessions',
      { bookingId: 'bkg_accepted' },
      { userId: 'usr_guest', amount: 240, currency: 'EUR', status: 'open', id: NOT_NULL },
    ),
  ]),
  ...replays(checkout, 'notTheGuest', 'unknownBooking', 'bookingNotAccepted'),
  ...sharedErrorCases(checkout, { bookingId: '' }, ['bookingId should not be empty']),

  // Notifications: the owner archives a notification (row 12).
  ...succeeds(archive, [
    updated(
      'notifications',
      'ntf_host_unarchived',
      { archivedAt: null, readAt: null },
      { archivedAt: NOT_NULL, readAt: NOT_NULL },
    ),
  ]),
  ...replays(archive, 'someoneElsesNotification', 'alreadyArchived'),
  ...sharedErrorCases(archive, { force: true }, ['property force should not exist']),
]
