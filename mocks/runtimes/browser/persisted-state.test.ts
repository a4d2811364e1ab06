import { describe, expect, it } from 'vitest'
import { anchors } from '../../../fixtures/anchors.ts'
import { getPersona, personaIds } from '../../../fixtures/personas.ts'
import { createSandbox, type Sandbox } from '../../sandbox.ts'
import {
  captureState,
  readPersistedState,
  restoreState,
  writePersistedState,
} from './persisted-state.ts'

class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>()
  get length() {
    return this.#items.size
  }
  clear() {
    this.#items.clear()
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.#items.delete(key)
  }
  setItem(key: string, value: string) {
    this.#items.set(key, value)
  }
}

async function post(sandbox: Sandbox, url: string, token: string) {
  const answer = await sandbox.handle({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  expect(answer.status).toBe(201)
}

async function signIn(sandbox: Sandbox): Promise<string> {
  const answer = await sandbox.handle({
    method: 'POST',
    url: '/auth/refresh?dryRun=true',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: getPersona('host').refreshToken }),
  })
  return (answer.body as { accessToken: string }).accessToken
}

describe('persisted state', () => {
  it('captures nothing for a store that was never written', async () => {
    const state = captureState(await createSandbox().store())
    expect(state).toMatchObject({ version: 1, scenario: 'default', sequence: 0, tables: {} })
  })

  it('captures only the written records, and restores them into a fresh sandbox', async () => {
    const first = createSandbox()
    const token = await signIn(first)
    await post(first, `/bookings/${anchors.bookings.pending}/decline`, token)
    await post(first, `/users/${personaIds.guest}/follow`, token)

    const state = captureState(await first.store())
    expect(Object.keys(state.tables).sort()).toEqual(['bookings', 'follows', 'notifications'])
    expect(state.tables.bookings?.upserts).toHaveLength(1)
    expect(state.sequence).toBe(2)

    const second = createSandbox()
    await restoreState(await second.store(), JSON.parse(JSON.stringify(state)))
    const restored = await second.store()
    const original = await first.store()
    expect(restored.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
    expect(restored.follows.get(`${personaIds.host}:${personaIds.guest}`)).toBeDefined()
    expect(restored.notifications.all()).toEqual(original.notifications.all())
  })

  it('hands out new ids after the restored ones', async () => {
    const first = createSandbox()
    await post(first, `/bookings/${anchors.bookings.pending}/decline`, await signIn(first))
    const second = createSandbox()
    await restoreState(await second.store(), captureState(await first.store()))
    await post(second, `/bookings/${anchors.bookings.pending2}/decline`, await signIn(second))
    const ids = (await second.store()).notifications
      .filter((notification) => notification.kind === 'booking.declined')
      .map((notification) => notification.id)
    expect(ids).toEqual(expect.arrayContaining(['ntf_n0001', 'ntf_n0002']))
  })

  it('reads back what it wrote, and treats anything else as absent', async () => {
    const storage = new MemoryStorage()
    const state = captureState(await createSandbox({ scenario: 'empty' }).store())
    writePersistedState(storage, 'key', state)
    expect(readPersistedState(storage, 'key')).toEqual(state)
    expect(readPersistedState(storage, 'missing')).toBeUndefined()
    storage.setItem('broken', '{not json')
    expect(readPersistedState(storage, 'broken')).toBeUndefined()
    storage.setItem('old', JSON.stringify({ ...state, version: 0 }))
    expect(readPersistedState(storage, 'old')).toBeUndefined()
  })
})
