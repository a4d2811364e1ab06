/**
 * @module
 * Auth and OAuth: rows 1 and 11 of the reference.
 */
import { z } from 'zod'
import { badRequest, unauthorized } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { issueAccessToken } from '../core/tokens.ts'
import { acknowledgement } from './side-effects.ts'

export const REFRESH_COOKIE = 'refresh_token'

const noParams = z.object({})

/** Row 1. Body `refreshToken` wins over the `refresh_token` cookie. */
export const refreshToken = defineOperation({
  id: 'refreshToken',
  row: 1,
  method: 'POST',
  path: '/auth/refresh',
  auth: 'public',
  dryRun: true,
  successStatus: 200,
  params: noParams,
  body: z.strictObject({ refreshToken: z.string().optional() }),
  async run({ body, cookies, store, now, tokens }) {
    const token = body.refreshToken ?? cookies[REFRESH_COOKIE]
    if (token === undefined || token === '') {
      throw unauthorized('Missing refresh token: send refreshToken or the refresh_token cookie')
    }
    if (token.split('.').length !== 2) {
      throw badRequest('Validation failed', ['refreshToken must have two dot-separated segments'])
    }
    const user = store.users.find((candidate) => candidate.refreshToken === token)
    if (!user) throw unauthorized('Refresh token not accepted')
    if (user.refreshTokenRevokedAt !== null) throw unauthorized('Refresh token revoked')
    const accessToken = await issueAccessToken(
      tokens,
      { sub: user.publicId, roles: [...user.roles] },
      now,
    )
    return { body: { accessToken } }
  },
})

/** Row 11. Starts a session: sets the HttpOnly `refresh_token` cookie. */
export const completeIdpSignIn = defineOperation({
  id: 'completeIdpSignIn',
  row: 11,
  method: 'POST',
  path: '/auth/idp/complete',
  auth: 'public',
  dryRun: false,
  successStatus: 201,
  params: noParams,
  body: z.strictObject({ code: z.string().min(1) }),
  async run({ body, store }) {
    const user = store.users.find((candidate) => candidate.idpCode === body.code)
    if (!user?.refreshToken || user.refreshTokenRevokedAt !== null) {
      throw unauthorized('Identity provider code not accepted')
    }
    return {
      body: acknowledgement,
      setCookie: [`${REFRESH_COOKIE}=${user.refreshToken}; Path=/; HttpOnly; SameSite=Lax`],
    }
  },
})
