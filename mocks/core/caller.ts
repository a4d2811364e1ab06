/**
 * @module
 * Who a request comes from, one rule each: the bearer token of `Authorization` (operations
 * and the control token alike), the refresh token a request sends and whom it belongs to, and
 * the caller they make, worked out once per request.
 */
import type { Persona } from '../model/content.ts'
import type { User } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import { SandboxError } from './errors.ts'
import { type InputRequest, readBody } from './request-input.ts'
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

/** Who a request comes from, worked out once per request (`RequestContext.callerIn`). */
export interface Caller {
  bearer: BearerReading
  /** The 401 a bearer token that does not verify (expired, invalid) is refused with. */
  refused?: SandboxError
  /** The verified token's user in the session's store, else the owner of the refresh token sent. */
  user: Readonly<User> | null
}

/** How the journal and the fault rules name a caller: its persona's key, else its public id. */
export function personaNames(personas: readonly Persona[]) {
  const keys = new Map(personas.map(({ publicId, key }) => [publicId, key]))
  return (user: Readonly<User> | null): string | undefined =>
    user ? (keys.get(user.publicId) ?? user.publicId) : undefined
}

/** What working out the caller reads of a request. */
export interface CallerRequest extends InputRequest {
  method: string
  cookies: Readonly<Record<string, string>>
}

/** A refresh token in the body as the body parser reads it; none when it refuses the body. */
function refreshTokenInBody(request: CallerRequest, limitBytes: number): string | undefined {
  if (request.method !== 'POST') return undefined
  try {
    const body = readBody(request, limitBytes) as { refreshToken?: unknown }
    return typeof body?.refreshToken === 'string' ? body.refreshToken : undefined
  } catch {
    return undefined
  }
}

/**
 * Who `request` comes from, in `store`: the bearer token verified (its subject's user), else,
 * without one, the owner of the refresh token it sends (a refresh). The pipeline's guards, the
 * fault rules and the journal read the same caller.
 */
export async function findCaller(
  request: CallerRequest,
  store: Store,
  settings: { tokens: TokenSettings; bodyLimitBytes: number; now(): Date },
): Promise<Caller> {
  const bearer = readBearer(request.headers.authorization)
  if (!bearer.ok) {
    const bodyToken = refreshTokenInBody(request, settings.bodyLimitBytes)
    const token = sentRefreshToken(bodyToken, request.cookies)
    const owner = token === undefined ? undefined : refreshTokenOwner(store, token)
    return { bearer, user: owner?.ok ? owner.user : null }
  }
  try {
    const { sub } = await verifyAccessToken(settings.tokens, bearer.token, settings.now())
    return { bearer, user: store.users.get(sub) ?? null }
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error
    return { bearer, user: null, refused: error }
  }
}
