import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_HEADER } from '../../sandbox-client/sandbox-client.ts'
import { readScenarioFiles, setupSandboxServer } from './index.ts'

const BASE = 'http://api.sandbox.test'
const { server, sandbox, reset } = setupSandboxServer({
  scenarios: await readScenarioFiles(['examples/scenarios/host-no-bookings.yaml']),
})
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

describe('setupSandboxServer({ scenarios })', () => {
  it('lists the file and resets a session to it through the control API', async () => {
    const listed = await fetch(`${BASE}/__sandbox/scenarios`).then((r) => r.json())
    expect(listed).toContainEqual(expect.objectContaining({ name: 'host-no-bookings' }))
    const headers = { 'content-type': 'application/json', [SESSION_HEADER]: 'n1' }
    const answer = await fetch(`${BASE}/__sandbox/reset`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ scenario: 'host-no-bookings' }),
    })
    expect(answer.status).toBe(200)
    const venues = await fetch(`${BASE}/__sandbox/collections/venues`, { headers }).then((r) =>
      r.json(),
    )
    expect(venues.map((venue: { id: string }) => venue.id)).toEqual(['ven_canal_loft'])
  })

  it('resets between tests to the file, and factories write into it', async () => {
    await reset({ scenario: 'host-no-bookings' })
    const booking = await sandbox.factories.bookings({ hostId: 'usr_host' })
    expect(booking.listingId).toBe('ven_canal_loft')
    const bookings = await fetch(`${BASE}/__sandbox/collections/bookings`).then((r) => r.json())
    expect(bookings).toEqual([booking])
    await reset()
    expect((await sandbox.store()).bookings.has(booking.id)).toBe(false)
  })
})
