import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'
import { readBearer, refreshTokenOwner, sentRefreshToken } from './caller.ts'

describe('readBearer: the one reading of Authorization', () => {
  it.each([
    ['Bearer abc', { ok: true, token: 'abc' }],
    ['bearer abc', { ok: true, token: 'abc' }],
    ['  Bearer   abc  ', { ok: true, token: 'abc' }],
    [undefined, { ok: false, problem: 'missing' }],
    ['', { ok: false, problem: 'missing' }],
    ['   ', { ok: false, problem: 'missing' }],
    ['Bearer', { ok: false, problem: 'malformed' }],
    ['Basic abc', { ok: false, problem: 'malformed' }],
    ['Bearer abc def', { ok: false, problem: 'malformed' }],
  ])('%j', (header, reading) => {
    expect(readBearer(header)).toEqual(reading)
  })
})

describe('the refresh token rule', () => {
  it('takes the body’s token over the cookie, and nothing for an empty one', () => {
    expect(sentRefreshToken('rt_a.b', { refresh_token: 'rt_c.d' })).toBe('rt_a.b')
    expect(sentRefreshToken(undefined, { refresh_token: 'rt_c.d' })).toBe('rt_c.d')
    expect(sentRefreshToken('', {})).toBeUndefined()
    expect(sentRefreshToken(undefined, { refresh_token: '' })).toBeUndefined()
  })

  it('finds the owner in the session’s store; a revoked token belongs to nobody', async () => {
    const sandbox = createSandbox()
    const store = await sandbox.store('qa')
    const host = store.users.get('usr_host')!
    expect(refreshTokenOwner(store, host.refreshToken!)).toMatchObject({
      ok: true,
      user: { publicId: 'usr_host' },
    })
    expect(refreshTokenOwner(store, 'rt_nobody.bm9ib2R5')).toEqual({
      ok: false,
      problem: 'unknown',
    })
    await store.users.update('usr_host', (draft) => {
      draft.refreshTokenRevokedAt = '2026-06-01T00:00:00.000Z'
    })
    expect(refreshTokenOwner(store, host.refreshToken!)).toEqual({ ok: false, problem: 'revoked' })
  })

  it('is the one a fault rule naming a persona follows: a revoked token is nobody’s', async () => {
    const sandbox = createSandbox()
    const headers = { 'x-sandbox-session': 'qa', 'content-type': 'application/json' }
    const added = await sandbox.handle({
      method: 'POST',
      url: '/__sandbox/faults',
      headers,
      body: JSON.stringify({ path: '/auth/refresh', persona: 'host', status: 503 }),
    })
    expect(added.status).toBe(201)
    const store = await sandbox.store('qa')
    const token = store.users.get('usr_host')!.refreshToken!
    const refresh = () =>
      sandbox.handle({
        method: 'POST',
        url: '/auth/refresh',
        headers: { ...headers, cookie: `refresh_token=${token}` },
        body: '{}',
      })
    expect((await refresh()).status).toBe(503)
    await store.users.update('usr_host', (draft) => {
      draft.refreshTokenRevokedAt = '2026-06-01T00:00:00.000Z'
    })
    const refused = await refresh()
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ message: 'Refresh token revoked' })
  })
})
