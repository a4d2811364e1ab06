import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'
import { OUTBOX_LIMIT } from './side-effects.ts'

const { api, sandbox } = useSandbox()
const sendClaim = `/venues/${anchors.venues.claimRequested}/send-claim-email`

describe('the outbox of a session', () => {
  it(`keeps at most ${OUTBOX_LIMIT} e-mails, dropping the oldest first`, async () => {
    const before = (await sandbox.store()).outbox.count()
    const sends = OUTBOX_LIMIT + 5 - before
    for (let i = 0; i < sends; i++) {
      const response = await api.request(sendClaim, {
        as: 'guest',
        body: { email: `r${i}@x.test` },
      })
      expect(response.status).toBe(201)
    }
    const outbox = (await sandbox.store()).outbox.all()
    expect(outbox).toHaveLength(OUTBOX_LIMIT)
    expect(outbox.at(-1)?.to).toBe(`r${sends - 1}@x.test`)
    expect(outbox.some((email) => email.to === `r${sends - OUTBOX_LIMIT}@x.test`)).toBe(true)
    expect(outbox.some((email) => email.to === `r${sends - OUTBOX_LIMIT - 1}@x.test`)).toBe(false)
  })
})
