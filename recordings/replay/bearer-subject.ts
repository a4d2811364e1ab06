/**
 * @module
 * Who a recorded `Authorization` header names: a bearer JWT's subject, its signature unchecked,
 * or the one the recorder kept when it redacted the token (`Bearer [REDACTED sub=usr_host]`).
 */
import { decodeJwt } from 'jose'

/** What the recorder writes for a redacted value. */
export const REDACTED = '[REDACTED]'

/** Whether a recorded value was redacted (`[REDACTED]`, `Bearer [REDACTED sub=...]`). */
export const isRedacted = (value: string): boolean => value.includes('[REDACTED')

const REDACTED_SUBJECT = /^Bearer \[REDACTED sub=([^\]]+)\]$/i

/** The claims of a JWT (`sub`, `roles`...), read by `jose` without checking its signature. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token)
  } catch {
    return undefined
  }
}

/** The subject (`sub`) of a JWT, read without checking its signature; `undefined` if none. */
export function jwtSubject(token: string): string | undefined {
  const sub = jwtClaims(token)?.sub
  return typeof sub === 'string' ? sub : undefined
}

/** The subject an `Authorization` header names, whole or redacted; `undefined` if none. */
export function bearerSubject(authorization: string): string | undefined {
  return (
    REDACTED_SUBJECT.exec(authorization.trim())?.[1] ??
    jwtSubject(authorization.trim().replace(/^Bearer\s+/i, ''))
  )
}
