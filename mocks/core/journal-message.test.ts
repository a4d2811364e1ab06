/**
 * A refused request's journal entry keeps its answer's `message`, so that the dashboard's row
 * says why (not only the status); cut at 200 characters. An answered one has none.
 */
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const rows = () =>
  sandbox.journal.list().map((entry) => [entry.operationId, entry.status, entry.message])

describe("the journal entry's message", () => {
  it("is the refusal's message, and absent on an answer that is not refused", async () => {
    const path = `/bookings/${anchors.bookings.pending}/decline`
    expect((await api.call(path, { method: 'POST', body: {}, as: 'host' })).status).toBe(201)
    const again = await api.call(path, { method: 'POST', body: {}, as: 'host' })
    expect(again.status).toBe(409)
    expect(rows().filter(([id]) => id === 'declineBooking')).toEqual([
      ['declineBooking', 201, undefined],
      ['declineBooking', 409, again.body.message],
    ])
    expect(again.body.message).toBe(
      `Booking "${anchors.bookings.pending}" is declined, only a pending booking can be declined`,
    )
  })

  it('is cut at 200 characters', async () => {
    const long = `/bookings/${'x'.repeat(400)}/decline`
    const refused = await api.call(long, { method: 'POST', body: {}, as: 'host' })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.body.message.length).toBeGreaterThan(200)
    const entry = sandbox.journal.list().at(-1)!
    expect(entry.status).toBe(refused.status)
    expect(entry.message).toBe(refused.body.message.slice(0, 200))
  })
})
