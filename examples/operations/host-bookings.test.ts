import { defineOperation, getPersona, operationKit, z } from 'platform-sandbox'
import hostScreens from 'platform-sandbox/examples/operations'
import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const API = 'http://localhost:4010'

/** A write of your own: the host marks a pending booking accepted. */
const acceptBooking = defineOperation({
  id: 'acceptBooking',
  method: 'POST',
  path: '/bookings/{bookingId}/accept',
  summary: 'The host accepts a pending booking',
  auth: { role: 'host' },
  dryRun: true,
  responses: { 201: { schema: z.object({ id: z.string(), status: z.string() }) } },
  answer: async ({ collections, params, caller }) => {
    const booking = collections.bookings.get(params.bookingId)
    if (booking?.hostId !== caller?.publicId) throw new Error('not your booking')
    const { id, status } = await collections.bookings.update(params.bookingId, (draft) => {
      draft.status = 'accepted'
    })
    return { id, status }
  },
})

const { server, reset } = setupSandboxServer({
  operations: [...hostScreens(operationKit), acceptBooking],
})
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => reset())
afterAll(() => server.close())

async function signInAsHost(): Promise<Record<string, string>> {
  const refresh = await fetch(`${API}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: getPersona('host').refreshToken }),
  })
  const { accessToken } = (await refresh.json()) as { accessToken: string }
  return { authorization: `Bearer ${accessToken}` }
}

it("lists the host's pending bookings, and an accepted one leaves the list", async () => {
  const headers = await signInAsHost()
  const pending = async () => {
    const answer = await fetch(`${API}/host/bookings?status=pending`, { headers })
    const page = (await answer.json()) as { items: { id: string }[] }
    return page.items.map((booking) => booking.id)
  }
  const before = await pending()
  expect(before).toContain('bkg_pending')
  const accepted = await fetch(`${API}/bookings/bkg_pending/accept`, { method: 'POST', headers })
  expect(accepted.status).toBe(201)
  expect(await pending()).toEqual(before.filter((id) => id !== 'bkg_pending'))
})
