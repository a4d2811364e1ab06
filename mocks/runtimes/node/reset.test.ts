import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../../fixtures/anchors.ts'
import { SESSION_HEADER } from '../../sandbox-client/sandbox-client.ts'
import { setupSandboxServer } from './index.ts'

const BASE = 'http://api.sandbox.test'
const { server, sandbox, reset } = setupSandboxServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => reset())
afterAll(() => server.close())

const bookingIds = async (session?: string) => {
  const headers: Record<string, string> = session ? { [SESSION_HEADER]: session } : {}
  const bookings = await fetch(`${BASE}/__sandbox/collections/bookings`, { headers }).then(
    (response) => response.json() as Promise<{ id: string }[]>,
  )
  return bookings.map((booking) => booking.id)
}

describe('reset() of setupSandboxServer', () => {
  it('puts every test back on a saved snapshot: reset({ snapshot })', async () => {
    await reset({ scenario: 'empty' })
    await sandbox.factories.bookings({ id: 'bkg_only_one', hostId: 'usr_host' })
    await sandbox.snapshots.save('one-booking')
    await reset()
    expect(await bookingIds()).toContain(anchors.bookings.pending)

    await reset({ snapshot: 'one-booking' })
    expect(await bookingIds()).toEqual(['bkg_only_one'])
  })

  it('puts one session on a saved snapshot: reset({ snapshot, session })', async () => {
    await reset({ scenario: 'empty', session: 'qa' })
    await sandbox.snapshots.save('blank', { session: 'qa' })
    await reset({ snapshot: 'blank', session: 'other' })
    expect(await bookingIds('other')).toEqual([])
    expect(await bookingIds()).toContain(anchors.bookings.pending)
  })

  it('refuses a snapshot named like a scenario, and nothing is saved', async () => {
    const answer = await fetch(`${BASE}/__sandbox/snapshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'default' }),
    })
    expect(answer.status).toBe(409)
    expect(sandbox.snapshots.list().map((info) => info.name)).not.toContain('default')
  })
})
