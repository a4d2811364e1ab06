/**
 * @module
 * A session's whole state: one `Table` per collection over a shared snapshot.
 */
import {
  type CollectionName,
  collectionDefinitions,
  collectionNames,
  type DataSet,
  type RecordOf,
} from './schemas.ts'
import {
  type BaseCollection,
  baseCollectionOf,
  createBaseCollection,
  deepFreeze,
  Table,
  type WriteNotes,
} from './table.ts'

/** A scenario's validated records, shared read-only by every session started from it. */
export interface Snapshot {
  readonly scenario: string
  readonly seed: number
  readonly bases: { readonly [Name in CollectionName]: BaseCollection<RecordOf<Name>> }
  /** Where `nextId` continues from, so ids made before a snapshot was saved are not made again. */
  readonly idSequence?: number
  /** The name it was saved under, for a snapshot saved from a session. */
  readonly savedAs?: string
}

const SEQUENCE_ID = /_n(\d+)$/

/** The highest `<prefix>_n0001`-style sequence number among `keys`, or 0. */
export function highestSequence(keys: Iterable<string>): number {
  let highest = 0
  for (const key of keys) {
    const match = SEQUENCE_ID.exec(key)
    if (match) highest = Math.max(highest, Number(match[1]))
  }
  return highest
}

export type Tables = { readonly [Name in CollectionName]: Table<RecordOf<Name>> }

export interface Store extends Tables {
  readonly snapshot: Snapshot
  /** A new identifier, unique within this store: `<prefix>_n0001`, `<prefix>_n0002`... */
  nextId(prefix: string): string
  /** How many records this store created, changed or deleted since it was made. */
  writeCount(): number
  /** Where its tables note their writes while one is summarised (`core/change-summary.ts`). */
  readonly notes: WriteNotes
}

/** The data sets whose every record is known to match its collection's schema. */
const schemaChecked = new WeakSet<DataSet>()

/**
 * Marks `data` as matching the collections' schemas record for record, so that
 * {@link createSnapshot} freezes it without parsing it again. For data made by code whose
 * output tests hold to the schemas (the built-in scenarios'); never for data from outside.
 */
export function schemaCheckedData<Data extends DataSet>(data: Data): Data {
  schemaChecked.add(data)
  return data
}

/** Validates a data set into a snapshot (the expensive step, done once per scenario and seed). */
export async function createSnapshot(
  scenario: string,
  seed: number,
  data: DataSet,
): Promise<Snapshot> {
  const bases = {} as Record<CollectionName, BaseCollection<object>>
  let idSequence = 0
  for (const name of collectionNames) {
    const { schema, key } = collectionDefinitions[name]
    bases[name] = await createBaseCollection<object>(schema, key as never, data[name], {
      checked: schemaChecked.has(data),
    })
    idSequence = Math.max(idSequence, highestSequence(bases[name].byKey.keys()))
  }
  return { scenario, seed, bases: bases as Snapshot['bases'], idSequence }
}

/** A fresh store over `snapshot`. Costs nothing in proportion to the snapshot's size. */
export function createStore(snapshot: Snapshot): Store {
  const tables = {} as Record<CollectionName, Table<object>>
  const notes: WriteNotes = { written: undefined }
  for (const name of collectionNames) {
    const { schema, key } = collectionDefinitions[name]
    tables[name] = new Table<object>(name, key as never, schema, snapshot.bases[name])
    tables[name].notes = notes
  }
  let sequence = snapshot.idSequence ?? 0
  return {
    ...(tables as unknown as Tables),
    snapshot,
    notes,
    nextId(prefix) {
      sequence += 1
      return `${prefix}_n${String(sequence).padStart(4, '0')}`
    },
    writeCount() {
      let count = 0
      for (const name of collectionNames) count += tables[name].writeCount
      return count
    },
  }
}

/**
 * A snapshot saved as `name` over `origin`: each collection's records as `recordsOf` gives them
 * (frozen; the origin's stay the same objects), or the origin's shared base where it gives none.
 * Its frozen records are shared, not copied, so a reset to it costs what a built-in's does.
 */
export function snapshotOf(
  origin: Snapshot,
  name: string,
  idSequence: number,
  recordsOf: (collection: CollectionName) => readonly object[] | undefined,
): Snapshot {
  const bases = {} as Record<CollectionName, BaseCollection<object>>
  for (const collection of collectionNames) {
    const { schema, key } = collectionDefinitions[collection]
    const before = origin.bases[collection].byKey as ReadonlyMap<string, object>
    const records = recordsOf(collection)
    if (!records) {
      bases[collection] = baseCollectionOf(schema, before)
      continue
    }
    const byKey = new Map<string, object>()
    for (const record of records as Record<string, unknown>[]) {
      const id = String(record[key])
      byKey.set(id, before.get(id) === record ? record : deepFreeze(record))
    }
    idSequence = Math.max(idSequence, highestSequence(byKey.keys()))
    bases[collection] = baseCollectionOf(schema, byKey)
  }
  const { scenario, seed } = origin
  return { scenario, seed, bases: bases as Snapshot['bases'], idSequence, savedAs: name }
}

/** A session's current state as a snapshot named `name`, which other sessions can start from. */
export function captureSnapshot(store: Store, name: string): Snapshot {
  return snapshotOf(store.snapshot, name, store.snapshot.idSequence ?? 0, (collection) =>
    store[collection].writeCount === 0 ? undefined : store[collection].all(),
  )
}
