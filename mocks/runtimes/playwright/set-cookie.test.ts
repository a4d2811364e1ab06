import { describe, expect, it } from 'vitest'
import { parseSetCookie } from './set-cookie.ts'

describe('parseSetCookie', () => {
  it('reads the refresh cookie of POST /auth/idp/complete', () => {
    const cookie = parseSetCookie(
      'refresh_token=rt_host.abc; Path=/; HttpOnly; SameSite=Lax',
      'http://localhost:4173/auth/idp/complete',
    )
    expect(cookie).toEqual({
      name: 'refresh_token',
      value: 'rt_host.abc',
      domain: 'localhost',
      path: '/',
      secure: false,
      httpOnly: true,
      sameSite: 'Lax',
    })
  })

  it('defaults the path to the request directory and reads domain, secure and lifetime', () => {
    const before = Math.floor(Date.now() / 1000)
    const cookie = parseSetCookie(
      'a=b=c; Domain=example.test; Secure; Max-Age=60; SameSite=none',
      'https://app.example.test/auth/idp/complete',
    )
    expect(cookie).toMatchObject({
      value: 'b=c',
      domain: '.example.test',
      path: '/auth/idp',
      secure: true,
      sameSite: 'None',
    })
    expect(cookie?.expires).toBeGreaterThanOrEqual(before + 60)
  })

  it('reads Expires when there is no Max-Age', () => {
    const cookie = parseSetCookie('a=b; Expires=Wed, 01 Jul 2026 00:00:00 GMT', 'http://localhost/')
    expect(cookie?.expires).toBe(Date.UTC(2026, 6, 1) / 1000)
  })

  it('ignores a header without a name', () => {
    expect(parseSetCookie('=value; Path=/', 'http://localhost/')).toBeUndefined()
    expect(parseSetCookie('garbage', 'http://localhost/')).toBeUndefined()
  })
})
