import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'

type Sandbox = ReturnType<typeof createSandbox>

async function postReset(sandbox: Sandbox, session: string, body: object) {
  const response = await sandbox.handle({
    method: 'POST',
    url: '/__sandbox/reset',
    headers: { 'x-sandbox-session': session, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: response.body }
}

const bookingCount = async (sandbox: Sandbox, session: string) =>
  (await sandbox.store(session)).bookings.all().length

describe('a bare reset returns the session to the sandbox’s starting scenario and seed', () => {
  it('in the core, after a reset to another scenario and seed', async () => {
    const sandbox = createSandbox({ seed: 11 })
    const starting = await bookingCount(sandbox, 'qa')
    expect(starting).toBeGreaterThan(0)
    await sandbox.reset({ session: 'qa', scenario: 'empty', seed: 3 })
    expect(await bookingCount(sandbox, 'qa')).toBe(0)
    expect(await sandbox.reset({ session: 'qa' })).toEqual({
      session: 'qa',
      scenario: 'default',
      seed: 11,
    })
    expect(await bookingCount(sandbox, 'qa')).toBe(starting)
  })

  it('to the scenario the sandbox was created with, not the built-in default', async () => {
    const sandbox = createSandbox({ scenario: 'empty' })
    await sandbox.reset({ scenario: 'default' })
    expect(await bookingCount(sandbox, 'default')).toBeGreaterThan(0)
    expect(await sandbox.reset()).toMatchObject({ scenario: 'empty' })
    expect(await bookingCount(sandbox, 'default')).toBe(0)
  })

  it('through a bare POST /__sandbox/reset after a reset to empty', async () => {
    const sandbox = createSandbox()
    const toEmpty = await postReset(sandbox, 'qa-http', { scenario: 'empty' })
    expect(toEmpty).toMatchObject({ status: 200, body: { scenario: 'empty' } })
    expect(await bookingCount(sandbox, 'qa-http')).toBe(0)
    const bare = await postReset(sandbox, 'qa-http', {})
    expect(bare).toEqual({
      status: 200,
      body: { session: 'qa-http', scenario: 'default', seed: sandbox.settings.seed },
    })
    expect(await bookingCount(sandbox, 'qa-http')).toBeGreaterThan(0)
  })

  it('also for a session last reset to a saved snapshot', async () => {
    const sandbox = createSandbox()
    await sandbox.reset({ session: 'qa-snap', scenario: 'empty' })
    await sandbox.snapshots.save('blank', { session: 'qa-snap' })
    expect(await sandbox.reset({ session: 'qa-snap', snapshot: 'blank' })).toMatchObject({
      snapshot: 'blank',
    })
    const bare = await sandbox.reset({ session: 'qa-snap' })
    expect(bare).toEqual({ session: 'qa-snap', scenario: 'default', seed: sandbox.settings.seed })
    expect(await bookingCount(sandbox, 'qa-snap')).toBeGreaterThan(0)
  })
})
