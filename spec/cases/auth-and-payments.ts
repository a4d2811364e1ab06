/**
 * @module
 * Cases of the operations of tokens and payments: refreshing an access token (row 1),
 * completing an identity provider sign-in (row 11), the connected account's status (row 2)
 * and the test refund webhook (row 13).
 */
import { SESSION_HEADER } from '../../mocks/core/index.ts'
import { z } from '../../mocks/model/zod.ts'
import {
  added,
  apiError,
  created,
  errorCase,
  NOT_NULL,
  profile,
  replay,
  replays,
  succeeds,
  successRequest,
  updated,
} from './build.ts'
import { sharedErrorCases } from './shared-errors.ts'
import type { ConformanceCase } from './types.ts'

const publicWithoutDryRun = { bearer: [], dryRun: false } as const
// The published RefreshBodyDto does not close the object; the overlay does.
const refresh = profile('refreshToken', 'hostSignsIn', [], { bearer: [] })
const idp = profile('completeIdpSignIn', 'hostSignsIn', [], publicWithoutDryRun)
const accountStatus = profile('getAccountStatus', 'enabledAccount', [], {
  bearer: ['published', 'merged'],
  dryRun: false,
  closedBody: [],
})
const refund = profile(
  'testRefundWebhook',
  'partialRefund',
  ['refunds', 'bookings', 'notifications'],
  publicWithoutDryRun,
)

const HOST_REFRESH_TOKEN = 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q'
const jwt = z.string().check(z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/))
const refreshRequest = (body: unknown) =>
  ({ method: 'POST', url: '/auth/refresh?dryRun=true', body }) as const

export const authAndPaymentCases: ConformanceCase[] = [
  // Auth and OAuth: refreshing an access token (row 1).
  ...replays(refresh, 'hostSignsIn', 'malformedRefreshToken', 'unknownRefreshToken'),
  {
    name: 'refreshToken: 200 with the refresh token in the refresh_token cookie',
    operationId: 'refreshToken',
    request: { ...refreshRequest({}), headers: { cookie: `refresh_token=${HOST_REFRESH_TOKEN}` } },
    expect: { status: 200, shape: z.strictObject({ accessToken: jwt }) },
  },
  errorCase(refresh, '401 when no refresh token is sent at all', {
    request: refreshRequest({}),
    status: 401,
    body: apiError(
      'UNAUTHORIZED',
      'Missing refresh token: send refreshToken or the refresh_token cookie',
    ),
  }),
  errorCase(refresh, '401 when the refresh token was revoked', {
    request: refreshRequest({ refreshToken: 'rt_revoked.c2FuZGJveC1yZWZyZXNoOnJldm9rZWQ' }),
    status: 401,
    body: apiError('UNAUTHORIZED', 'Refresh token revoked'),
  }),
  errorCase(refresh, '400 when refreshToken is not a string', {
    request: refreshRequest({ refreshToken: 42 }),
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', ['refreshToken must be a string']),
    breaks: ['published', 'merged'],
  }),
  errorCase(refresh, '400 when refreshToken in the body does not have two segments', {
    request: refreshRequest({ refreshToken: 'not-a-refresh-token' }),
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', [
      'refreshToken must have two dot-separated segments',
    ]),
    breaks: ['merged'],
  }),
  ...sharedErrorCases(refresh),

  // Auth and OAuth: completing an identity provider sign-in (row 11).
  replay(idp, 'hostSignsIn'),
  {
    name: 'completeIdpSignIn: 201 sets the HttpOnly refresh_token cookie',
    operationId: 'completeIdpSignIn',
    request: successRequest(idp),
    expect: {
      status: 201,
      body: { success: true },
      headers: { 'set-cookie': `refresh_token=${HOST_REFRESH_TOKEN}; Path=/; HttpOnly` },
    },
  },
  replay(idp, 'unknownCode'),
  errorCase(idp, '400 when the code is missing', {
    request: { method: 'POST', url: '/auth/idp/complete', body: {} },
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', ['code is required']),
    breaks: ['merged'],
  }),
  ...sharedErrorCases(idp),

  // Core and Webhooks: the connected account's status (row 2).
  ...replays(
    accountStatus,
    'enabledAccount',
    'restrictedAccount',
    'pendingVerification',
    'invalidAccessToken',
    'noConnectedAccount',
  ),
  errorCase(accountStatus, '400 when the x-sandbox-session header is malformed', {
    request: {
      method: 'GET',
      url: '/payprov/account-status',
      as: 'host',
      headers: { [SESSION_HEADER]: 'not a session id!' },
    },
    status: 400,
    body: apiError('BAD_REQUEST', 'Invalid sandbox session id', [
      'session id (x-sandbox-session header or sandbox_session cookie) must be 1 to 64 letters, digits or . _ : -',
    ]),
    breaks: ['merged'],
  }),
  ...sharedErrorCases(accountStatus),

  // Core and Webhooks: the test refund webhook (row 13).
  ...succeeds(refund, [
    updated('bookings', 'bkg_paid', { status: 'paid' }, { status: 'refunded' }),
    created('refunds', { bookingId: 'bkg_paid' }, { amount: 100, createdAt: NOT_NULL }),
    added('notifications', { userId: 'usr_guest', kind: 'booking.refunded' }),
  ]),
  ...replays(refund, 'amountAboveBooking', 'unknownBooking', 'bookingNotPaid'),
  ...sharedErrorCases(refund, { amount: -1 }, [
    'bookingId is required',
    'amount must be greater than 0',
  ]),
]
