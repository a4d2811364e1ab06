/**
 * @module
 * A session's current state as a snapshot other sessions can start from. Its frozen records are
 * shared, not copied: one `Map` entry per record, and a reset to it costs what a built-in's does.
 */
import { type CollectionName, collectionDefinitions, collectionNames } from './schemas.ts'
import { highestSequence, type Snapshot, type Store } from './store.ts'
import { type BaseCollection, baseCollectionOf } from './table.ts'

/** Captures `store` as a snapshot named `name`. */
export function captureSnapshot(store: Store, name: string): Snapshot {
  const bases = {} as Record<CollectionName, BaseCollection<object>>
  let idSequence = store.snapshot.idSequence ?? 0
  for (const collection of collectionNames) {
    const { schema, key } = collectionDefinitions[collection]
    const table = store[collection]
    if (table.writeCount === 0) {
      bases[collection] = baseCollectionOf(schema, table.base.byKey as ReadonlyMap<string, object>)
      continue
    }
    const byKey = new Map<string, object>()
    for (const record of table.all() as Record<string, unknown>[]) {
      const id = String(record[key])
      byKey.set(id, record)
    }
    idSequence = Math.max(idSequence, highestSequence(byKey.keys()))
    bases[collection] = baseCollectionOf(schema, byKey)
  }
  const { scenario, seed } = store.snapshot
  return { scenario, seed, bases: bases as Snapshot['bases'], idSequence, savedAs: name }
}
