/**
 * @module
 * Who a request comes from, one rule each: the bearer token of `Authorization` (operations
 * and the control token alike), the refresh token a request sends and whom it belongs to.
 */
import type { Persona } from '../model/content.ts'
import type { User } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import type { SandboxRequest } from './http.ts'
import { type TokenSettings, verifyAccessToken } from './tokens.ts'

/** The cookie the identity provider's sign-in sets and `POST /auth/refresh` reads. */
export const REFRESH_COOKIE = 'refresh_token'

export type BearerReading =
  | { ok: true; token: string }
  | { ok: false; problem: 'missing' | 'malformed' }

/** `Authorization: Bearer <token>`, the scheme in any case, spaces around ignored. */
export function readBearer(header: string | undefined): BearerReading {
  if (header === undefined || header.trim() === '') return { ok: false, problem: 'missing' }
  const [scheme, token, extra] = header.trim().split(/\s+/)
  if (scheme?.toLowerCase() !== 'bearer' || !token || extra !== undefined) {
    return { ok: false, problem: 'malformed' }
  }
  return { ok: true, token }
}

/** The body's `refreshToken` wins over the cookie; `undefined` for neither (or empty). */
export function sentRefreshToken(
  bodyToken: string | undefined,
  cookies: Readonly<Record<string, string>>,
): string | undefined {
  const token = bodyToken ?? cookies[REFRESH_COOKIE]
  return token === undefined || token === '' ? undefined : token
}

export type RefreshTokenOwner =
  | { ok: true; user: Readonly<User> }
  | { ok: false; problem: 'unknown' | 'revoked' }

/** Whom `token` belongs to in a session's store: a revoked one to nobody. */
export function refreshTokenOwner(store: Store, token: string): RefreshTokenOwner {
  const user = store.users.find((candidate) => candidate.refreshToken === token)
  if (!user) return { ok: false, problem: 'unknown' }
  if (user.refreshTokenRevokedAt !== null) return { ok: false, problem: 'revoked' }
  return { ok: true, user }
}

/** In a raw body; no failure on one not JSON (the pipeline refuses it) or too long. */
export function refreshTokenInBody(request: Pick<SandboxRequest, 'body'>): string | undefined {
  if (!request.body || request.body.length >= 10_000) return undefined
  try {
    const body = JSON.parse(request.body) as { refreshToken?: unknown }
    return typeof body?.refreshToken === 'string' ? body.refreshToken : undefined
  } catch {
    return undefined
  }
}

const personaKeyOf = (personas: readonly Persona[], publicId: string) =>
  personas.find((persona) => persona.publicId === publicId)?.key

/**
 * The persona a request comes from, for fault rules that name one: a valid bearer token's
 * subject, else the owner of the refresh token it sends.
 */
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
