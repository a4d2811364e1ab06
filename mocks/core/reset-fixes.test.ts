import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'

describe('resets in the core', () => {
  it('resetAll({ snapshot }) puts the default session on the saved snapshot', async () => {
    const sandbox = createSandbox()
    await sandbox.reset({ session: 'qa', scenario: 'empty' })
    await sandbox.snapshots.save('blank', { session: 'qa' })
    expect(await sandbox.resetAll({ snapshot: 'blank' })).toEqual({
      session: 'default',
      scenario: 'empty',
      seed: sandbox.settings.seed,
      snapshot: 'blank',
    })
    expect((await sandbox.store()).bookings.count()).toBe(0)
    expect(sandbox.sessionIds()).toEqual(['default'])
  })

  it('announces every reset and dropped session as events', async () => {
    const sandbox = createSandbox()
    const seen: string[] = []
    sandbox.events.on('session:reset', ({ data }) =>
      seen.push(
        `reset ${data.session} ${data.scenario}${data.snapshot ? ` ${data.snapshot}` : ''}`,
      ),
    )
    sandbox.events.on('session:dropped', ({ data }) => seen.push(`dropped ${data.session}`))
    await sandbox.reset({ session: 'qa', scenario: 'empty' })
    await sandbox.snapshots.save('blank', { session: 'qa' })
    await sandbox.reset({ session: 'other', snapshot: 'blank' })
    await sandbox.resetAll({ scenario: 'empty' })
    expect(seen).toEqual([
      'reset qa empty',
      'reset other empty blank',
      'dropped qa',
      'dropped other',
      'reset default empty',
    ])
  })

  it('a reset to a saved snapshot clears the session’s fault rules and clock too', async () => {
    const sandbox = createSandbox()
    await sandbox.snapshots.save('start')
    await sandbox.handle({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': 'qa' },
      body: JSON.stringify({ method: 'GET', path: '/payprov/account-status', status: 500 }),
    })
    sandbox.clocks.advance('qa', 3600)
    expect(sandbox.faults.list('qa')).toHaveLength(1)
    await sandbox.reset({ session: 'qa', snapshot: 'start' })
    expect(sandbox.faults.list('qa')).toEqual([])
    expect(sandbox.clocks.has('qa')).toBe(false)
  })
})

describe('a snapshot may not take a scenario’s name', () => {
  it('is refused with 409 through the control API, nothing saved', async () => {
    const sandbox = createSandbox()
    await sandbox.reset({ session: 'qa', scenario: 'empty' })
    const saved = await sandbox.handle({
      method: 'POST',
      url: '/__sandbox/snapshots',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': 'qa' },
      body: JSON.stringify({ name: 'empty' }),
    })
    expect(saved.status).toBe(409)
    expect(saved.body).toEqual({
      message: expect.stringContaining('"empty" is the name of a scenario'),
      code: 'CONFLICT',
    })
    expect(sandbox.snapshots.list()).toEqual([])
  })

  it('in code too, and a snapshot of its own name exports a file that loads', async () => {
    const sandbox = createSandbox()
    await sandbox.reset({ session: 'qa', scenario: 'empty' })
    await expect(sandbox.snapshots.save('empty', { session: 'qa' })).rejects.toMatchObject({
      status: 409,
    })
    await sandbox.snapshots.save('empty-copy', { session: 'qa' })
    const file = await sandbox.snapshots.export('empty-copy')
    expect(file).toMatchObject({ name: 'empty-copy', extends: 'empty' })
    const loaded = createSandbox({ scenarios: [file], scenario: 'empty-copy' })
    expect((await loaded.store()).bookings.count()).toBe(0)
    expect(sandbox.snapshots.list().map((info) => info.name)).toEqual(['empty-copy'])
  })
})
