/**
 * @module
 * Real HS256 access tokens, signed and verified with jose.
 */
import { errors, jwtVerify, SignJWT } from 'jose'
import { unauthorized } from './errors.ts'

export interface TokenSettings {
  /** Secret the access tokens are signed with. */
  secret: string
  /** Lifetime of an access token, in seconds. */
  ttlSeconds: number
}

export interface AccessClaims {
  sub: string
  roles: string[]
}

const encoder = new TextEncoder()
const keys = new Map<string, Uint8Array>()

function keyFor(secret: string): Uint8Array {
  let key = keys.get(secret)
  if (!key) {
    key = encoder.encode(secret)
    keys.set(secret, key)
  }
  return key
}

/** Signs an access token for `claims`, issued at `now`. */
export async function issueAccessToken(
  settings: TokenSettings,
  claims: AccessClaims,
  now: Date,
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new SignJWT({ roles: claims.roles })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + settings.ttlSeconds)
    .sign(keyFor(settings.secret))
}

/**
 * Verifies a bearer token: signature (HS256 only, so `alg: none` and foreign
 * algorithms fail), expiry against `now`, and the claims the sandbox relies on.
 */
export async function verifyAccessToken(
  settings: TokenSettings,
  token: string,
  now: Date,
): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, keyFor(settings.secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    const roles = Array.isArray(payload.roles) ? payload.roles.map(String) : []
    return { sub: String(payload.sub), roles }
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized('Access token expired')
    throw unauthorized('Invalid access token')
  }
}
