/**
 * @module
 * What a write changed in a session: the records created, changed (each field's old and new
 * value) and deleted, by collection and key, bounded. Read from what the copy-on-write tables
 * note while the write runs (`Table.written`), so it costs the records written, never a scan.
 */
import { type CollectionName, collectionNames } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import type { WriteNotes } from '../model/table.ts'

export interface CollectionChanges {
  created?: string[]
  /** Each changed record's fields: `[old, new]`. */
  changed?: Record<string, Record<string, [unknown, unknown]>>
  deleted?: string[]
  /** How many more records changed than are listed. */
  more?: number
}

export type ChangeSummary = { [Name in CollectionName]?: CollectionChanges }

/** Most records a summary lists, and about how many characters; the rest are counted. */
const MAX_LISTED = 20
const MAX_CHARACTERS = 4000
const MAX_VALUE = 120

/** Asks the answer of a request for its change summary, in the header of the same name. */
export const CHANGES_HEADER = 'x-sandbox-changes'

/** Switched off by `npm run bench` alone, to measure what a summary costs a write. */
export const changeSummaries = { enabled: true }

/** A value as a summary shows it: a long one cut. */
function shown(value: unknown): unknown {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
  return text.length <= MAX_VALUE ? value : `${text.slice(0, MAX_VALUE)}…`
}

/** The differences of one write or reset, bounded. */
class Summary {
  readonly changes: ChangeSummary = {}
  #listed = 0
  #characters = 0

  add(name: CollectionName, key: string, before: object | undefined, after: object | undefined) {
    if (before === after) return
    let fields: Record<string, [unknown, unknown]> | undefined
    if (before && after) {
      const old = before as Record<string, unknown>
      const now = after as Record<string, unknown>
      for (const field of new Set([...Object.keys(old), ...Object.keys(now)])) {
        const [a, b] = [old[field], now[field]]
        if (a === b || JSON.stringify(a) === JSON.stringify(b)) continue
        fields ??= {}
        fields[field] = [shown(a), shown(b)]
      }
      if (!fields) return
    }
    this.changes[name] ??= {}
    const entry = this.changes[name]
    const size = key.length + (fields ? JSON.stringify(fields).length : 0)
    if (this.#listed >= MAX_LISTED || this.#characters + size > MAX_CHARACTERS) {
      entry.more = (entry.more ?? 0) + 1
      return
    }
    this.#listed += 1
    this.#characters += size
    if (fields) {
      entry.changed ??= {}
      entry.changed[key] = fields
    } else {
      const list = before ? 'deleted' : 'created'
      entry[list] ??= []
      entry[list].push(key)
    }
  }
}

/** Starts noting the writes to `store`; the function returned stops and summarises them. */
export function noteChanges(store: Store): () => ChangeSummary | undefined {
  if (!changeSummaries.enabled) return () => undefined
  const written: NonNullable<WriteNotes['written']> = []
  store.notes.written = written
  return () => {
    store.notes.written = undefined
    if (written.length === 0) return undefined
    const summary = new Summary()
    // The record before its first write of this one.
    const seen = written.length > 1 ? new Set<string>() : undefined
    for (const [table, key, before] of written) {
      if (seen?.has(`${table.name} ${key}`)) continue
      seen?.add(`${table.name} ${key}`)
      summary.add(table.name as CollectionName, key, before, table.get(key))
    }
    return Object.keys(summary.changes).length > 0 ? summary.changes : undefined
  }
}

/**
 * What going from `before` to `after` changes (a reset): the records either session wrote, and
 * every record of a collection whose scenario records differ.
 */
export function storeChanges(before: Store, after: Store): ChangeSummary {
  const summary = new Summary()
  for (const name of collectionNames) {
    const [from, to] = [before[name], after[name]]
    const keys = new Set([...from.writtenKeys(), ...to.writtenKeys()])
    if (from.base.byKey !== to.base.byKey) {
      for (const key of from.base.byKey.keys()) keys.add(key)
      for (const key of to.base.byKey.keys()) keys.add(key)
    }
    for (const key of keys) summary.add(name, key, from.get(key), to.get(key))
  }
  return summary.changes
}

/** The summary as a header value (ASCII), and back. */
export const encodeChanges = (summary: ChangeSummary) => encodeURIComponent(JSON.stringify(summary))
export const decodeChanges = (header: string): ChangeSummary =>
  JSON.parse(decodeURIComponent(header)) as ChangeSummary
