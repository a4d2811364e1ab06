/**
 * The journal names the persona of a request whenever the caller is known: by its access
 * token, and on a refresh by the refresh token it sends, in its body or its cookie.
 */
import { describe, expect, it } from 'vitest'
import { getPersona } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const rows = () =>
  sandbox.journal.list().map((entry) => [entry.operationId, entry.status, entry.persona])

describe("the journal's persona", () => {
  it('is the owner of the refresh token a refresh sends in its body', async () => {
    const host = getPersona('host')
    const refreshed = await api.request('/auth/refresh', {
      body: { refreshToken: host.refreshToken },
    })
    expect(refreshed.status).toBe(200)
    const account = await api.request('/payprov/account-status', {
      authorization: `Bearer ${refreshed.body.accessToken}`,
    })
    expect(account.status).toBe(200)
    expect(rows()).toEqual([
      ['refreshToken', 200, 'host'],
      ['getAccountStatus', 200, 'host'],
    ])
  })

  it('is the owner of the refresh cookie of a cookie-only refresh, refused or not', async () => {
    expect((await api.request('/auth/idp/complete', { body: { code: 'idp_guest' } })).status).toBe(
      201,
    )
    expect((await api.request('/auth/refresh', { body: {} })).status).toBe(200)
    // Refused for its body, sent with the same cookie: the caller is still known.
    expect((await api.request('/auth/refresh', { body: { refreshToken: 42 } })).status).toBe(400)
    expect(rows().slice(1)).toEqual([
      ['refreshToken', 200, 'guest'],
      ['refreshToken', 400, 'guest'],
    ])
  })

  it('is absent when no one is known: no token, or one of nobody', async () => {
    expect((await api.request('/auth/refresh', { body: {} })).status).toBe(401)
    const unknown = await api.request('/auth/refresh', { body: { refreshToken: 'rt_nobody.eA' } })
    expect(unknown.status).toBe(401)
    expect(rows()).toEqual([
      ['refreshToken', 401, undefined],
      ['refreshToken', 401, undefined],
    ])
  })
})
