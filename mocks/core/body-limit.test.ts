import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox({ bodyLimitBytes: 1000 })
const decline = `/bookings/${anchors.bookings.pending}/decline`

describe('a body limit below 12,288 bytes', () => {
  it('accepts a valid small body', async () => {
    const response = await api.request(decline, { as: 'host', body: { reason: 'Fully booked' } })
    expect(response.status).toBe(201)
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
  })

  it('accepts a body of exactly the limit in multi-byte characters', async () => {
    const prefix = '{"reason":"'
    const suffix = '"}'
    const reason = 'é'.repeat((1000 - prefix.length - suffix.length) / 2)
    const body = `${prefix}${reason}${suffix}`
    expect(new TextEncoder().encode(body).length).toBe(999)
    expect((await api.request(`${decline}?dryRun=true`, { as: 'host', body })).status).toBe(201)
  })

  it('refuses a body one byte past the limit with 413', async () => {
    const response = await api.request(decline, {
      as: 'host',
      body: { reason: 'x'.repeat(1000 - '{"reason":""}'.length + 1) },
    })
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('refuses a body one byte past the limit in multi-byte characters with 413', async () => {
    const body = `{"reason":"${'é'.repeat(494)}"}`
    expect([body.length, new TextEncoder().encode(body).length]).toEqual([507, 1001])
    const response = await api.request(decline, { as: 'host', body })
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('pending')
  })
})
