/**
 * @module
 * A session's state as a small JSON value (its scenario, seed and the records it wrote or
 * deleted), kept in `sessionStorage` by the browser entry so that a reload finds it again.
 */

import { type CollectionName, collectionNames } from '../../model/schemas.ts'
import type { Store } from '../../model/store.ts'
import type { Table } from '../../model/table.ts'
import type { Sandbox } from '../../sandbox.ts'

export interface PersistedState {
  version: 1
  scenario: string
  seed: number
  /** How many ids the store had handed out (`<prefix>_n0001`...), so new ones do not clash. */
  sequence: number
  tables: Partial<Record<CollectionName, PersistedTable>>
}

export interface PersistedTable {
  /** Records created or changed, in full. */
  upserts: Record<string, unknown>[]
  /** Keys of base records this session deleted. */
  deleted: string[]
}

type AnyTable = Table<Record<string, unknown>>

const GENERATED_ID = /_n(\d+)$/

/** The writes of `store` against its scenario. Reads only the tables that were written. */
export function captureState(store: Store): PersistedState {
  const state: PersistedState = {
    version: 1,
    scenario: store.snapshot.scenario,
    seed: store.snapshot.seed,
    sequence: 0,
    tables: {},
  }
  for (const name of collectionNames) {
    const table = store[name] as unknown as AnyTable
    if (table.writeCount === 0) continue
    const upserts: Record<string, unknown>[] = []
    for (const record of table.all()) {
      const id = String(record[table.key])
      if (table.base.byKey.get(id) === record) continue
      upserts.push({ ...record })
      const generated = GENERATED_ID.exec(id)
      if (generated) state.sequence = Math.max(state.sequence, Number(generated[1]))
    }
    const deleted = [...table.base.byKey.keys()].filter((id) => !table.has(id))
    state.tables[name] = { upserts, deleted }
  }
  return state
}

/** Replays `state` onto a fresh store of the same scenario and seed. Validates every record. */
export async function restoreState(store: Store, state: PersistedState): Promise<void> {
  for (const name of collectionNames) {
    const saved = state.tables[name]
    if (!saved) continue
    const table = store[name] as unknown as AnyTable
    for (const record of saved.upserts) {
      const id = String(record[table.key])
      if (!table.has(id)) await table.insert(record)
      else await table.update(id, (draft) => void Object.assign(draft, record))
    }
    for (const id of saved.deleted) table.delete(id)
  }
  for (let i = 0; i < state.sequence; i++) store.nextId('restored')
}

/** The state saved under `key`, or `undefined` when there is none or it is unreadable. */
export function readPersistedState(storage: Storage, key: string): PersistedState | undefined {
  try {
    const value = JSON.parse(storage.getItem(key) ?? 'null') as Partial<PersistedState> | null
    const valid =
      value?.version === 1 &&
      typeof value.scenario === 'string' &&
      typeof value.seed === 'number' &&
      typeof value.sequence === 'number' &&
      typeof value.tables === 'object' &&
      value.tables !== null
    return valid ? (value as PersistedState) : undefined
  } catch {
    return undefined // Unreadable: treated as absent, and overwritten on the next write.
  }
}

export function writePersistedState(storage: Storage, key: string, state: PersistedState): void {
  storage.setItem(key, JSON.stringify(state))
}

/** Lays the state saved under `key` over `sandbox`; one that no longer applies is dropped. */
export async function restoreSaved(
  sandbox: Pick<Sandbox, 'reset' | 'store'>,
  storage: Storage,
  key: string,
): Promise<void> {
  const saved = readPersistedState(storage, key)
  if (!saved) return
  try {
    await sandbox.reset({ scenario: saved.scenario, seed: saved.seed })
    await restoreState(await sandbox.store(), saved)
  } catch (error) {
    console.warn('[sandbox] Failed to restore the saved state, starting afresh:', error)
    storage.removeItem(key)
    await sandbox.reset()
  }
}
