/**
 * Auth and OAuth: refreshing an access token (row 1) and completing an identity provider
 * sign-in (row 11).
 *
 * @module
 */
import { z } from '../../mocks/model/zod.ts'
import { apiError, errorCase, type OperationProfile, replay, sharedErrorCases } from './build.ts'
import type { ConformanceCase } from './types.ts'

const refresh: OperationProfile = {
  operationId: 'refreshToken',
  success: 'hostSignsIn',
  bearer: [],
  dryRun: true,
  // The published RefreshBodyDto does not close the object; the overlay does.
  closedBody: ['merged'],
  writes: [],
}

const idp: OperationProfile = {
  operationId: 'completeIdpSignIn',
  success: 'hostSignsIn',
  bearer: [],
  dryRun: false,
  closedBody: ['merged'],
  writes: [],
}

const HOST_REFRESH_TOKEN = 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q'
const jwt = z.string().check(z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/))

export const authCases: ConformanceCase[] = [
  replay(refresh, 'hostSignsIn'),
  replay(refresh, 'malformedRefreshToken'),
  replay(refresh, 'unknownRefreshToken'),
  {
    name: 'refreshToken: 200 with the refresh token in the refresh_token cookie',
    operationId: 'refreshToken',
    request: {
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      headers: { cookie: `refresh_token=${HOST_REFRESH_TOKEN}` },
      body: {},
    },
    expect: { status: 200, shape: z.strictObject({ accessToken: jwt }) },
  },
  errorCase(refresh, '401 when no refresh token is sent at all', {
    request: { method: 'POST', url: '/auth/refresh?dryRun=true', body: {} },
    status: 401,
    body: apiError(
      'UNAUTHORIZED',
      'Missing refresh token: send refreshToken or the refresh_token cookie',
    ),
  }),
  errorCase(refresh, '401 when the refresh token was revoked', {
    request: {
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      body: { refreshToken: 'rt_revoked.c2FuZGJveC1yZWZyZXNoOnJldm9rZWQ' },
    },
    status: 401,
    body: apiError('UNAUTHORIZED', 'Refresh token revoked'),
  }),
  errorCase(refresh, '400 when refreshToken is not a string', {
    request: { method: 'POST', url: '/auth/refresh?dryRun=true', body: { refreshToken: 42 } },
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', ['refreshToken must be a string']),
    breaks: ['published', 'merged'],
  }),
  errorCase(refresh, '400 when refreshToken in the body does not have two segments', {
    request: {
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      body: { refreshToken: 'not-a-refresh-token' },
    },
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', [
      'refreshToken must have two dot-separated segments',
    ]),
    breaks: ['merged'],
  }),
  ...sharedErrorCases(refresh),

  replay(idp, 'hostSignsIn'),
  {
    name: 'completeIdpSignIn: 201 sets the HttpOnly refresh_token cookie',
    operationId: 'completeIdpSignIn',
    request: replay(idp, 'hostSignsIn').request,
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
]
