import { describe, expect, it } from 'vitest'
import { bearerSubject, jwtClaims } from '../record/redact.ts'

/** An unsigned JWT whose payload is `claims`, encoded as UTF-8 base64url. */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`
}

describe('jwtClaims', () => {
  it('reads claims that are not ASCII as the UTF-8 they were written in', () => {
    const claims = { sub: 'usr_zoë', name: 'Zoë — 東京 🚀', roles: ['host'] }
    expect(jwtClaims(jwt(claims))).toEqual(claims)
    expect(bearerSubject(`Bearer ${jwt(claims)}`)).toBe('usr_zoë')
  })

  it('gives nothing for a value that is not a JWT', () => {
    expect(jwtClaims('not-a-jwt')).toBeUndefined()
    expect(jwtClaims('a.%%%.c')).toBeUndefined()
    expect(bearerSubject('Bearer opaque-token')).toBeUndefined()
  })

  it('reads the subject the recorder kept in a redacted header', () => {
    expect(bearerSubject('Bearer [REDACTED sub=usr_host]')).toBe('usr_host')
  })
})
