/**
 * @module
 * The app's own cookie sign-in under `setupSandboxServer`, run by one test file per
 * Vitest environment (`node`, `jsdom`): cookies must behave as in a browser in both.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { getPersona } from '../../fixtures/personas.ts'
import { setupSandboxServer } from '../../mocks/runtimes/node/index.ts'

const API = 'http://localhost:4010'

export function describeCookieSignIn(environment: string): void {
  const { server, sandbox, reset } = setupSandboxServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => reset())
  afterAll(() => server.close())

  const post = (url: string, init: RequestInit = {}) =>
    fetch(url, { method: 'POST', credentials: 'include', ...init })
  const signIn = (persona: 'host' | 'guest', origin = API) =>
    post(`${origin}/auth/idp/complete`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: getPersona(persona).idpCode }),
    })
  const subjectOf = (accessToken: string) =>
    JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sub

  describe(`cookie sign-in under setupSandboxServer (${environment})`, () => {
    it('sends the refresh_token cookie of idp/complete back on a cookie-only refresh', async () => {
      const started = await signIn('host')
      expect(started.status).toBe(201)

      const refreshed = await post(`${API}/auth/refresh`)
      expect(refreshed.status).toBe(200)
      const { accessToken } = (await refreshed.json()) as { accessToken: string }
      expect(subjectOf(accessToken)).toBe('usr_host')

      const account = await fetch(`${API}/payprov/account-status`, {
        headers: { authorization: `Bearer ${accessToken}` },
      })
      expect(account.status).toBe(200)
      expect(await account.json()).toMatchObject({ payouts_enabled: true })
      expect(sandbox.journal.list().map((entry) => entry.status)).toEqual([201, 200, 200])
    })

    it("sends no cookie with credentials: 'omit', and keeps none from its answer", async () => {
      await signIn('host')
      const omitted = await post(`${API}/auth/refresh`, { credentials: 'omit' })
      expect(omitted.status).toBe(401)
      expect(await omitted.json()).toMatchObject({ code: 'UNAUTHORIZED' })

      await reset()
      await post(`${API}/auth/idp/complete`, {
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: getPersona('host').idpCode }),
      })
      expect((await post(`${API}/auth/refresh`)).status).toBe(401)
    })

    it('forgets the cookies on reset()', async () => {
      await signIn('host')
      expect((await post(`${API}/auth/refresh`)).status).toBe(200)
      await reset()
      const refreshed = await post(`${API}/auth/refresh`)
      expect(refreshed.status).toBe(401)
      expect(await refreshed.json()).toMatchObject({
        message: expect.stringContaining('Missing refresh token'),
      })
    })

    it('sends a cookie only to the host that set it', async () => {
      await signIn('host', 'http://api.other.test')
      expect((await post(`${API}/auth/refresh`)).status).toBe(401)
      expect((await post('http://api.other.test/auth/refresh')).status).toBe(200)
    })

    it("lets the request's own Cookie header win over the kept cookie", async () => {
      await signIn('host')
      const refreshed = await post(`${API}/auth/refresh`, {
        headers: { cookie: `refresh_token=${getPersona('guest').refreshToken}` },
      })
      expect(refreshed.status).toBe(200)
      const { accessToken } = (await refreshed.json()) as { accessToken: string }
      expect(subjectOf(accessToken)).toBe('usr_guest')
    })
  })
}
