import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox({ strictContract: true })
const decline = `/bookings/${anchors.bookings.pending}/decline`

describe('strictContract', () => {
  it('makes a missing dryRun a 400, as the published contract requires it', async () => {
    const response = await api.request(decline, { as: 'host', body: {} })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'dryRun is required by the published contract and must be one of: true',
    ])
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
  })

  it('still performs writes with dryRun=false', async () => {
    expect((await api.request(`${decline}?dryRun=false`, { as: 'host', body: {} })).status).toBe(
      201,
    )
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('declined')
  })

  it('leaves operations without dryRun alone', async () => {
    const response = await api.request('/checkout/create-session', {
      as: 'guest',
      body: { bookingId: anchors.bookings.accepted },
    })
    expect(response.status).toBe(201)
  })
})
