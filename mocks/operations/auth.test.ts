import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { getPersona } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const NOW = new Date('2026-06-01T12:00:00.000Z')
const SECRET = 'test-secret-for-auth-tests'
const { api, sandbox } = useSandbox({ secret: SECRET, now: () => NOW })
const host = getPersona('host')

async function sign(claims: Record<string, unknown>, secret = SECRET, alg = 'HS256') {
  const key = new TextEncoder().encode(secret)
  return new SignJWT(claims).setProtectedHeader({ alg }).sign(key)
}

describe('POST /auth/refresh', () => {
  it('returns a signed HS256 access token for a valid refresh token in the body', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', {
      body: { refreshToken: host.refreshToken },
    })
    expect(response.status).toBe(200)
    const [header, payload] = response.body.accessToken
      .split('.')
      .slice(0, 2)
      .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()))
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(payload).toEqual({
      sub: host.publicId,
      roles: ['host'],
      iat: NOW.getTime() / 1000,
      exp: NOW.getTime() / 1000 + 900,
    })
  })

  it('accepts the refresh token from the refresh_token cookie', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', {
      body: {},
      headers: { cookie: `refresh_token=${host.refreshToken}` },
    })
    expect(response.status).toBe(200)
    expect(response.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
  })

  it('prefers the body token over the cookie when both are sent', async () => {
    const guest = getPersona('guest')
    const response = await api.request('/auth/refresh?dryRun=true', {
      body: { refreshToken: guest.refreshToken },
      headers: { cookie: `refresh_token=${host.refreshToken}` },
    })
    const payload = JSON.parse(
      Buffer.from(response.body.accessToken.split('.')[1], 'base64url').toString(),
    )
    expect(payload.sub).toBe(guest.publicId)
  })

  it('returns 400 with details when refreshToken is not a string', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', { body: { refreshToken: 42 } })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      message: 'Validation failed',
      code: 'BAD_REQUEST',
      details: ['refreshToken must be a string'],
    })
  })

  it('returns 400 for a token that does not have two segments', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', {
      body: { refreshToken: 'abc' },
    })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('BAD_REQUEST')
  })

  it('returns 401 for an unknown refresh token', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', {
      body: { refreshToken: 'rt_nobody.bm9ib2R5' },
    })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ message: 'Refresh token not accepted', code: 'UNAUTHORIZED' })
  })

  it('returns 401 for a revoked refresh token', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', {
      body: { refreshToken: anchors.revokedUser.refreshToken },
    })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ message: 'Refresh token revoked', code: 'UNAUTHORIZED' })
  })

  it('returns 401 when no refresh token is sent at all', async () => {
    const response = await api.request('/auth/refresh?dryRun=true', { body: {} })
    expect(response.status).toBe(401)
    expect(response.body.code).toBe('UNAUTHORIZED')
  })

  it('rejects an unknown dryRun value and names the allowed values', async () => {
    const response = await api.request('/auth/refresh?dryRun=yes', {
      body: { refreshToken: host.refreshToken },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['dryRun must be one of: true, false'])
  })
})

describe('POST /auth/idp/complete', () => {
  it('starts a session: 201 and an HttpOnly refresh_token cookie', async () => {
    const response = await api.request('/auth/idp/complete', { body: { code: host.idpCode } })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    expect(response.headers.getSetCookie()).toEqual([
      `refresh_token=${host.refreshToken}; Path=/; HttpOnly; SameSite=Lax`,
    ])
  })

  it('returns 401 for an unknown code and sets no cookie', async () => {
    const response = await api.request('/auth/idp/complete', { body: { code: 'idp_nobody' } })
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('returns 400 listing the missing code', async () => {
    const response = await api.request('/auth/idp/complete', { body: {} })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['code is required'])
  })
})

describe('bearer tokens', () => {
  const path = '/payprov/account-status'

  it('accepts a token the sandbox signed', async () => {
    expect((await api.request(path, { as: 'host' })).status).toBe(200)
  })

  it.each([
    ['no Authorization header', undefined],
    ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['a malformed token', 'Bearer not-a-jwt'],
  ])('returns 401 for %s', async (_, authorization) => {
    const response = await api.request(path, authorization ? { authorization } : {})
    expect(response.status).toBe(401)
    expect(response.body.code).toBe('UNAUTHORIZED')
  })

  it('returns 401 for a forged token (payload changed after signing)', async () => {
    const token = await api.accessToken('guest')
    const [header, , signature] = token.split('.')
    const payload = Buffer.from(
      JSON.stringify({ sub: host.publicId, roles: ['admin'], iat: 1, exp: 9_999_999_999 }),
    ).toString('base64url')
    const response = await api.request(path, {
      authorization: `Bearer ${header}.${payload}.${signature}`,
    })
    expect(response.status).toBe(401)
  })

  it('returns 401 for an alg:none token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    const payload = Buffer.from(
      JSON.stringify({ sub: host.publicId, roles: ['host'], iat: 1, exp: 9_999_999_999 }),
    ).toString('base64url')
    const response = await api.request(path, { authorization: `Bearer ${header}.${payload}.` })
    expect(response.status).toBe(401)
  })

  it('returns 401 for an expired token', async () => {
    const issuedAt = NOW.getTime() / 1000 - 3600
    const token = await sign({
      sub: host.publicId,
      roles: ['host'],
      iat: issuedAt,
      exp: issuedAt + 900,
    })
    const response = await api.request(path, { authorization: `Bearer ${token}` })
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Access token expired')
  })

  it('returns 401 for a token signed with a foreign secret', async () => {
    const issuedAt = NOW.getTime() / 1000
    const token = await sign(
      { sub: host.publicId, roles: ['host'], iat: issuedAt, exp: issuedAt + 900 },
      'someone-else',
    )
    expect((await api.request(path, { authorization: `Bearer ${token}` })).status).toBe(401)
  })

  it('returns 401 for a valid token of a user the state does not know', async () => {
    const issuedAt = NOW.getTime() / 1000
    const token = await sign({
      sub: 'usr_ghost',
      roles: ['host'],
      iat: issuedAt,
      exp: issuedAt + 900,
    })
    expect((await api.request(path, { authorization: `Bearer ${token}` })).status).toBe(401)
  })

  it('keeps the sandbox usable after bad tokens', async () => {
    await api.request(path, { authorization: 'Bearer x.y.z' })
    expect((await api.request(path, { as: 'host' })).status).toBe(200)
    expect(sandbox.journal.list().map((entry) => entry.status)).toContain(401)
  })
})
