import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()

describe('console control calls', () => {
  it('lists the sessions with their scenario and seed', async () => {
    await api.request('/__sandbox/reset', { body: { scenario: 'empty', seed: 3 }, session: 'qa-a' })
    const response = await api.request('/__sandbox/sessions')
    expect(response.status).toBe(200)
    expect(response.body).toEqual(
      expect.arrayContaining([
        { id: 'default', scenario: 'default', seed: expect.any(Number) },
        { id: 'qa-a', scenario: 'empty', seed: 3 },
      ]),
    )
  })

  it('counts the records of each collection, after writes too', async () => {
    const before = (await api.request('/__sandbox/collections')).body
    expect(before.bookings).toBe((await api.collection('bookings')).length)
    await api.request(`/bookings/${anchors.bookings.pending}/decline`, { as: 'host', body: {} })
    const after = (await api.request('/__sandbox/collections')).body
    expect(after.notifications).toBe(before.notifications + 1)
    expect(Object.keys(after)).toHaveLength(12)
  })
})
