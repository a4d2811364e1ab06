/**
 * @module
 * Real HS256 access tokens, signed and verified with jose.
 */
import { errors, jwtVerify, SignJWT } from 'jose'
import { unauthorized } from './errors.ts'

export interface TokenSettings {
  secret: string
  ttlSeconds: number
}

export interface AccessClaims {
  sub: string
  roles: string[]
}

const encoder = new TextEncoder()
const keys = new Map<string, Promise<CryptoKey>>()

// Importing the key once matters: jose re-imports a raw `Uint8Array` secret on every call,
// which costs more than the HMAC itself.
function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    )
    keys.set(secret, key)
  }
  return key
}

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
    .sign(await keyFor(settings.secret))
}

/**
 * Verifies a bearer token: signature (HS256 only, so `alg: none` fails), expiry against `now`,
 * the claims the sandbox relies on, on every request (about 45 µs). Remembering verified tokens
 * made a GET over HTTP twice as fast, but it is 1.3x Express without (goal 0.8x): see
 * `docs/contributing/library-choices.md`.
 */
export async function verifyAccessToken(
  settings: TokenSettings,
  token: string,
  now: Date,
): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, await keyFor(settings.secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    const roles = Array.isArray(payload.roles) ? payload.roles.map(String) : []
    const claims = { sub: String(payload.sub), roles }
    return claims
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized('Access token expired')
    throw unauthorized('Invalid access token')
  }
}
