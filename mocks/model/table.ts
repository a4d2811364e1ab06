/**
 * @module
 * A collection as one session sees it: a shared, frozen base (the scenario's validated
 * records) plus the session's own validated writes, both in `Map`s by key, so lookups never
 * scan and a new session costs nothing until it writes (docs/decisions/0001).
 */
import { Collection } from '@msw/data'
import { invariant } from 'outvariant'
import type { z } from './zod.ts'

type AnySchema = z.ZodMiniObject

/** The scenario's records of one collection, validated once and shared by every session. */
export interface BaseCollection<T extends object> {
  readonly byKey: ReadonlyMap<string, T>
  /**
   * The same records as an @msw/data collection, for test authors' queries; built on the first
   * call, as creating ~160k records through @msw/data made up most of `large`'s first load.
   */
  toCollection(): Promise<Collection<AnySchema>>
}

/**
 * Validates `records` with `schema` (unless `checked`) and freezes them, so that a session
 * can never change the shared base by accident.
 */
export async function createBaseCollection<T extends object>(
  schema: AnySchema,
  key: keyof T & string,
  records: readonly T[],
  { checked = false }: { checked?: boolean } = {},
): Promise<BaseCollection<T>> {
  const byKey = new Map<string, T>()
  for (const values of records) {
    let record = values
    // Records known to match already (the built-in generator's, held to it by its tests) are
    // taken as they are: parsing them again was a third of the time to a first answer.
    if (!checked) {
      const parsed = schema.safeParse(values)
      invariant(
        parsed.success,
        'Failed to create the base collection: a record does not match the schema (%s)',
        issuesOf(parsed.error),
      )
      record = parsed.data as T
    }
    const id = String(record[key])
    invariant(!byKey.has(id), 'Failed to create the base collection: duplicate key "%s"', id)
    byKey.set(id, deepFreeze(record))
  }
  return baseCollectionOf(schema, byKey)
}

/** A base over records that are already validated and frozen (a saved snapshot's). */
export function baseCollectionOf<T extends object>(
  schema: AnySchema,
  byKey: ReadonlyMap<string, T>,
): BaseCollection<T> {
  let collection: Promise<Collection<AnySchema>> | undefined
  return {
    byKey,
    toCollection() {
      collection ??= collectionOf(schema, byKey.values())
      return collection
    },
  }
}

/** A new @msw/data collection holding copies of `records`. */
async function collectionOf(schema: AnySchema, records: Iterable<object>) {
  const collection = new Collection({ schema })
  for (const record of records) await collection.create(clonePlain(record) as never)
  return collection
}

/** A zod error's issues as `path: message; ...`, for the messages that refuse a record. */
const issuesOf = (error: z.core.$ZodError | undefined) =>
  error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/**
 * A copy of a record's JSON value, so a draft or an answer never shares the store's frozen
 * objects. Not `structuredClone`, which doubled the time of `GET /payprov/account-status`
 * in process (18 µs to 40 µs).
 */
export function clonePlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clonePlain) as T
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const key in value) copy[key] = clonePlain((value as Record<string, unknown>)[key])
  return copy as T
}

/** `values` parsed by `schema` (a copy) and frozen; or an error naming each field refused. */
function parsed<T>(schema: AnySchema, values: unknown, table: string): T {
  const result = schema.safeParse(values)
  invariant(
    result.success,
    'Failed to write to "%s": the record does not match the schema (%s)',
    table,
    issuesOf(result.error),
  )
  return deepFreeze(result.data as T)
}

/** Where a store's tables note each key a write wrote, and its record before, while summarised. */
export type WriteNotes = { written: [Table<object>, string, object?][] | undefined }

/** One collection of one session: the base overlaid with the session's validated writes. */
export class Table<T extends object> {
  readonly #schema: AnySchema
  readonly #changed = new Map<string, T>()
  readonly #deleted = new Set<string>()
  /** Shared by the tables of a store (`core/change-summary.ts`). */
  notes: WriteNotes = { written: undefined }

  readonly name: string
  readonly key: keyof T & string
  readonly base: BaseCollection<T>

  constructor(name: string, key: keyof T & string, schema: AnySchema, base: BaseCollection<T>) {
    this.name = name
    this.key = key
    this.#schema = schema
    this.base = base
  }

  /** A copy of what this session sees (`all()`) as a new @msw/data collection. */
  toCollection(): Promise<Collection<AnySchema>> {
    return collectionOf(this.#schema, this.all())
  }

  /** The record with this key, or `undefined`. Never scans. */
  get(id: string): Readonly<T> | undefined {
    const changed = this.#changed.get(id)
    if (changed) return changed
    if (this.#deleted.has(id)) return undefined
    return this.base.byKey.get(id)
  }

  has(id: string): boolean {
    return this.get(id) !== undefined
  }

  /** Every record, base order first, then the session's new records in creation order. */
  all(): Readonly<T>[] {
    return this.filter(() => true)
  }

  count(): number {
    let count = this.base.byKey.size - this.#deleted.size
    for (const id of this.#changed.keys()) if (!this.base.byKey.has(id)) count++
    return count
  }

  /** The first record matching `predicate` (scans, in the order of `all()`). */
  find(predicate: (record: Readonly<T>) => boolean): Readonly<T> | undefined {
    let found: T | undefined
    this.#scan((record) => {
      if (!predicate(record)) return false
      found = record
      return true
    })
    return found
  }

  /** Every record matching `predicate` (scans, in the order of `all()`). */
  filter(predicate: (record: Readonly<T>) => boolean): Readonly<T>[] {
    const result: T[] = []
    this.#scan((record) => {
      if (predicate(record)) result.push(record)
      return false
    })
    return result
  }

  /** How many records this session created, changed or deleted. */
  get writeCount(): number {
    return this.#changed.size + this.#deleted.size
  }

  /** The keys of the records this session created, changed or deleted. */
  writtenKeys(): string[] {
    return [...this.#changed.keys(), ...this.#deleted]
  }

  #note(id: string, before?: Readonly<T>): void {
    this.notes.written?.push(before ? [this as never, id, before] : [this as never, id])
  }

  /** Validates and stores a new record. */
  async insert(values: T): Promise<Readonly<T>> {
    return this.add(values)
  }

  /** {@link insert}, at once: for code that makes many records in a row (the factories). */
  add(values: T): Readonly<T> {
    const id = this.#newKey(values)
    return this.#put(id, parsed<T>(this.#schema, values, this.name))
  }

  /** {@link add} for a record this schema, or its strict form, has just parsed (a factory's). */
  addParsed(record: T): Readonly<T> {
    const id = this.#newKey(record)
    return this.#put(id, deepFreeze(record))
  }

  #newKey(values: T): string {
    const id = String(values[this.key])
    invariant(!this.has(id), 'Failed to insert into "%s": key "%s" already exists', this.name, id)
    return id
  }

  #put(id: string, record: T): Readonly<T> {
    this.#note(id)
    this.#changed.set(id, record)
    this.#deleted.delete(id)
    return record
  }

  /** Applies `mutate` to a copy of the record, validates it and stores it. */
  async update(id: string, mutate: (draft: T) => void): Promise<Readonly<T>> {
    const current = this.get(id)
    invariant(current, 'Failed to update "%s" in "%s": no such record', id, this.name)
    const draft = clonePlain(current) as T
    mutate(draft)
    const record = parsed<T>(this.#schema, draft, this.name)
    this.#note(id, current)
    this.#changed.set(id, record)
    return record
  }

  /** Removes the record from this session's view. */
  delete(id: string): boolean {
    const current = this.get(id)
    if (!current) return false
    this.#note(id, current)
    this.#changed.delete(id)
    if (this.base.byKey.has(id)) this.#deleted.add(id)
    return true
  }

  /**
   * Calls `visit` with each record in the order of `all()` until it returns `true`. A plain
   * loop, not a generator: factories scan small collections once per record they make.
   */
  #scan(visit: (record: T) => boolean): void {
    const changed = this.#changed
    const deleted = this.#deleted
    const untouched = changed.size === 0 && deleted.size === 0
    for (const [id, record] of this.base.byKey) {
      if (untouched) {
        if (visit(record)) return
        continue
      }
      if (deleted.has(id)) continue
      if (visit(changed.get(id) ?? record)) return
    }
    for (const [id, record] of changed) {
      if (!this.base.byKey.has(id) && visit(record)) return
    }
  }
}
