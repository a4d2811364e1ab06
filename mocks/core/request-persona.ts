/**
 * @module
 * Which persona a request comes from, for fault rules that name one: a valid bearer token's
 * subject, else the owner of the refresh token it sends (the rules of `caller.ts`).
 */
import type { Persona } from '../model/content.ts'
import type { Store } from '../model/store.ts'
import {
  personaKeyOf,
  readBearer,
  refreshTokenInBody,
  refreshTokenOwner,
  sentRefreshToken,
} from './caller.ts'
import type { SandboxRequest } from './http.ts'
import { type TokenSettings, verifyAccessToken } from './tokens.ts'

export async function requestPersona(
  request: SandboxRequest,
  cookies: Readonly<Record<string, string>>,
  personas: readonly Persona[],
  tokens: TokenSettings,
  now: Date,
  store: () => Promise<Store>,
): Promise<string | undefined> {
  const bearer = readBearer(request.headers.authorization)
  if (bearer.ok) {
    try {
      const { sub } = await verifyAccessToken(tokens, bearer.token, now)
      return personaKeyOf(personas, sub)
    } catch {
      return undefined
    }
  }
  const token = sentRefreshToken(refreshTokenInBody(request), cookies)
  if (token === undefined) return undefined
  const owner = refreshTokenOwner(await store(), token)
  return owner.ok ? personaKeyOf(personas, owner.user.publicId) : undefined
}
