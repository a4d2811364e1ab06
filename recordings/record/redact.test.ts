import { describe, expect, it } from 'vitest'
import { createHarEntry } from '../har.ts'
import { bearerSubject, jwtClaims, REDACTED_IN_RECORDING, redactEntry } from './redact.ts'

const entryWithBody = (text: string) =>
  createHarEntry({
    method: 'POST',
    url: 'http://localhost/x',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: text,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{}',
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 1,
  })

describe('redactEntry', () => {
  it('redacts a JSON pointer the body has, and adds none it lacks, even one every object has', () => {
    const entry = entryWithBody('{"user":{"ssn":"123"},"note":"x"}')
    redactEntry(entry, { extra: ['/user/ssn', '/constructor', '/note/toString'] })
    expect(JSON.parse(entry.request.postData!.text!)).toEqual({
      user: { ssn: REDACTED_IN_RECORDING },
      note: 'x',
    })
  })

  it('keeps a field named __proto__ as a field', () => {
    const entry = entryWithBody('{"__proto__":{"token":"secret","a":1},"b":2}')
    redactEntry(entry)
    expect(entry.request.postData!.text).toBe(
      `{"__proto__":{"token":"${REDACTED_IN_RECORDING}","a":1},"b":2}`,
    )
  })
})

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
