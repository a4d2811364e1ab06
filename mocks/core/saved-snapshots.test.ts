import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'

describe('sandbox.snapshots.save: a name is saved once', () => {
  it('refuses a name already saved with a 409, and keeps the first snapshot', async () => {
    const sandbox = createSandbox()
    await sandbox.reset({ session: 'qa-1', scenario: 'empty' })
    const first = await sandbox.snapshots.save('shared', { session: 'qa-1' })
    await expect(sandbox.snapshots.save('shared', { session: 'qa-2' })).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: expect.stringContaining('Snapshot name "shared" is taken'),
    })
    expect(sandbox.snapshots.list()).toEqual([first])
    expect(sandbox.snapshots.get('shared').scenario).toBe('empty')
  })

  it('replaces it with replace: true', async () => {
    const sandbox = createSandbox()
    await sandbox.reset({ session: 'qa-1', scenario: 'empty' })
    await sandbox.snapshots.save('shared', { session: 'qa-1' })
    const replaced = await sandbox.snapshots.save('shared', { session: 'qa-2', replace: true })
    expect(replaced).toMatchObject({ name: 'shared', session: 'qa-2', scenario: 'default' })
    expect(sandbox.snapshots.list()).toEqual([replaced])
    expect(sandbox.snapshots.get('shared').scenario).toBe('default')
  })

  it('saves one of two saves of a new name made at once, and refuses the other', async () => {
    const sandbox = createSandbox()
    const results = await Promise.allSettled([
      sandbox.snapshots.save('raced', { session: 'qa-1' }),
      sandbox.snapshots.save('raced', { session: 'qa-2' }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const saved = results.find((result) => result.status === 'fulfilled')!
    expect(sandbox.snapshots.list()).toEqual([saved.value])
  })
})
