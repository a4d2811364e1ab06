import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { completeIdpSignIn, declineBooking, refreshToken } from './orval/platform.ts'

const { server, sandbox, reset } = setupSandboxServer()

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => reset())
afterAll(() => server.close())

it('signs in and declines a booking through the client orval generated', async () => {
  const include = { credentials: 'include' } as const
  expect((await completeIdpSignIn({ code: 'idp_host' }, include)).status).toBe(201)
  const refreshed = await refreshToken({}, undefined, include)
  if (refreshed.status !== 200) throw new Error(`refresh: ${refreshed.data.message}`)

  const authorization = `Bearer ${refreshed.data.accessToken}`
  const declined = await declineBooking('bkg_pending', { reason: 'Fully booked' }, undefined, {
    headers: { authorization },
  })
  expect(declined.status).toBe(201)
  const again = await declineBooking('bkg_pending', {}, undefined, { headers: { authorization } })
  expect(again).toMatchObject({ status: 409, data: { code: 'CONFLICT' } })
  expect((await sandbox.store()).bookings.get('bkg_pending')?.status).toBe('declined')
})
