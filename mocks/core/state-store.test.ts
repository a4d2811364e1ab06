import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { describeStateStore } from '../../test-support/state-store.contract.ts'
import { createSandbox } from '../sandbox.ts'
import { signIn } from '../sandbox-client/sandbox-client.ts'
import { memoryStore } from './state-store.ts'

describeStateStore('memory', () => {
  const store = memoryStore()
  return { open: () => store }
})

describe('sandboxes on one memory store', () => {
  it('share what outlives a sandbox: sessions, saved snapshots, uploaded scenarios', async () => {
    const store = memoryStore()
    const first = createSandbox({ store })
    const token = await signIn(first, 'host')
    const declined = await first.handle({
      method: 'POST',
      url: `/bookings/${anchors.bookings.pending}/decline`,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-sandbox-session': 'qa',
      },
      body: '{}',
    })
    expect(declined.status).toBe(201)
    await first.snapshots.save('declined', { session: 'qa' })
    await first.uploadScenario({ name: 'uploaded', extends: 'empty' })
    first.addScenarios([{ name: 'in-code', extends: 'empty' }])

    const second = createSandbox({ store })
    await second.ready
    const status = async (session: string) =>
      (await second.store(session)).bookings.get(anchors.bookings.pending)?.status
    expect(await status('qa')).toBe('declined')
    expect(second.snapshots.list()).toEqual(first.snapshots.list())
    await second.reset({ session: 'probe', snapshot: 'declined' })
    expect(await status('probe')).toBe('declined')
    expect(Object.keys(second.scenarios)).toContain('uploaded')
    expect(Object.keys(second.scenarios)).not.toContain('in-code')
  })
})
