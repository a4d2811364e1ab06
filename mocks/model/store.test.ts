import { describe, expect, it } from 'vitest'
import { DEFAULT_SEED, scenarios } from '../../fixtures/scenarios.ts'
import { createSnapshot, createStore, schemaCheckedData } from './store.ts'

describe('createSnapshot', () => {
  it('parses a data set from outside: each record of the snapshot is a parsed copy', async () => {
    const data = scenarios.empty!.build(DEFAULT_SEED)
    const user = data.users[0]!
    const snapshot = await createSnapshot('empty', DEFAULT_SEED, { ...data })
    expect(snapshot.bases.users.byKey.get(user.publicId)).toEqual(user)
    expect(snapshot.bases.users.byKey.get(user.publicId)).not.toBe(user)
  })

  it('takes a data set marked as schema-checked as it is, and a store reads it', async () => {
    const data = scenarios.empty!.build(DEFAULT_SEED)
    const user = data.users[0]!
    const snapshot = await createSnapshot('empty', DEFAULT_SEED, data)
    expect(snapshot.bases.users.byKey.get(user.publicId)).toBe(user)
    expect(Object.isFrozen(user)).toBe(true)
    expect(createStore(snapshot).users.get(user.publicId)).toBe(user)
  })

  it('refuses a broken record of a data set that is not marked', async () => {
    const data = scenarios.empty!.build(DEFAULT_SEED)
    const broken = { ...data, users: [{ ...data.users[0]!, email: 'not an e-mail' }] }
    await expect(createSnapshot('empty', DEFAULT_SEED, broken)).rejects.toThrow(
      /does not match the schema \(email: /,
    )
    await expect(
      createSnapshot('empty', DEFAULT_SEED, schemaCheckedData({ ...broken })),
    ).resolves.toBeDefined()
  })
})
