import { getPersona } from 'platform-sandbox'
import { createPlatformClient } from 'platform-sandbox/client'
import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const { server, sandbox, reset } = setupSandboxServer()
const api = createPlatformClient({ baseUrl: 'http://localhost:4010' })

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => reset())
afterAll(() => server.close())

it('declines a pending booking', async () => {
  const signedIn = await api.POST('/auth/refresh', {
    body: { refreshToken: getPersona('host').refreshToken },
  })
  const accessToken = signedIn.data?.accessToken
  expect(accessToken).toBeTypeOf('string')

  const { response } = await api.POST('/bookings/{bookingId}/decline', {
    params: { path: { bookingId: 'bkg_pending' } },
    headers: { authorization: `Bearer ${accessToken}` },
    body: { reason: 'Fully booked' },
  })

  expect(response.status).toBe(201)
  const store = await sandbox.store()
  expect(store.bookings.get('bkg_pending')?.status).toBe('declined')
  expect(sandbox.journal.list().at(-1)).toMatchObject({
    operationId: 'declineBooking',
    status: 201,
  })
})

it('starts every test from the scenario again', async () => {
  const store = await sandbox.store()
  expect(store.bookings.get('bkg_pending')?.status).toBe('pending')
})
