/**
 * @module
 * Auth and OAuth: rows 1 and 11 of the reference. Kept as code, not declared rules: the
 * refresh token comes from the body or a cookie and is found by a field that is not a key,
 * with its revocation, and what is answered (a new access token, a cookie) names the user
 * only in the answer; the learner reads it there, for the credential each declares (`signIn`).
 */
import {
  badRequest,
  defineBuiltInOperation,
  issueAccessToken,
  REFRESH_COOKIE,
  refreshTokenOwner,
  sentRefreshToken,
  unauthorized,
} from '../core/index.ts'
import { REFRESH_TOKEN } from '../model/shapes.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement } from './side-effects.ts'

const noParams = z.object({})

/** Row 1. Body `refreshToken` wins over the `refresh_token` cookie. */
export const refreshToken = defineBuiltInOperation({
  id: 'refreshToken',
  row: 1,
  method: 'POST',
  path: '/auth/refresh',
  auth: 'public',
  dryRun: true,
  successStatus: 200,
  signIn: { by: 'refreshToken', sent: 'refreshToken' },
  params: noParams,
  body: z.strictObject({
    refreshToken: z.optional(
      z.string().check(z.regex(REFRESH_TOKEN, 'must have two dot-separated segments')),
    ),
  }),
  async run({ body, cookies, store, now, tokens }) {
    const token = sentRefreshToken(body.refreshToken, cookies)
    if (token === undefined) {
      throw unauthorized('Missing refresh token: send refreshToken or the refresh_token cookie')
    }
    // The body's token is checked by the schema; the cookie's here, by the same rule.
    if (!REFRESH_TOKEN.test(token)) {
      throw badRequest('Validation failed', ['refreshToken must have two dot-separated segments'])
    }
    const owner = refreshTokenOwner(store, token)
    if (!owner.ok) {
      throw unauthorized(
        owner.problem === 'revoked' ? 'Refresh token revoked' : 'Refresh token not accepted',
      )
    }
    const { user } = owner
    const accessToken = await issueAccessToken(
      tokens,
      { sub: user.publicId, roles: [...user.roles] },
      now,
    )
    return { body: { accessToken } }
  },
})

/** Row 11. Starts a session: sets the HttpOnly `refresh_token` cookie. */
export const completeIdpSignIn = defineBuiltInOperation({
  id: 'completeIdpSignIn',
  row: 11,
  method: 'POST',
  path: '/auth/idp/complete',
  auth: 'public',
  dryRun: false,
  successStatus: 201,
  signIn: { by: 'idpCode', sent: 'code' },
  params: noParams,
  body: z.strictObject({ code: nonEmpty() }),
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
