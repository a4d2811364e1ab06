import { afterAll, beforeAll, expect, it } from 'vitest'
import { getPersona } from '../fixtures/personas.ts'
import { setupSandboxServer } from '../mocks/runtimes/node/index.ts'
import { createPlatformClient } from './index.ts'

// Created before msw's server replaces `globalThis.fetch`, as a module-level client would be.
const api = createPlatformClient({ baseUrl: 'http://localhost:4010' })
const { server } = setupSandboxServer()

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

it('sends through the fetch in place at request time, so msw answers a client made earlier', async () => {
  const refreshed = await api.POST('/auth/refresh', {
    params: { query: { dryRun: 'true' } },
    body: { refreshToken: getPersona('host').refreshToken },
  })
  expect(refreshed.response.status).toBe(200)
  const status = await api.GET('/payprov/account-status', {
    headers: { authorization: `Bearer ${refreshed.data?.accessToken}` },
  })
  expect(status.data).toMatchObject({ payouts_enabled: true, charges_enabled: true })
})
