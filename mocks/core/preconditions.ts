/**
 * @module
 * The vocabulary operations declare their rules with: the preconditions on the state, in the
 * order the backend checks them, and the writes (declared with `rules-on.ts`, which checks
 * each against its record's type). The pipeline checks and applies them here; the learner
 * reads the same declarations backwards (a recorded 404 is a failed `exists`).
 */
import { type CollectionName, collectionDefinitions } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import { clonePlain, type Table } from '../model/table.ts'
import { badRequest, conflict, forbidden, notFound, type SandboxError } from './errors.ts'

/** What the rules read of a request: its decoded params, its validated body, the caller's id. */
export interface RuleInput {
  params: Readonly<Record<string, string>>
  body: Readonly<Record<string, unknown>>
  /** The caller's public id; `''` for a public operation. */
  caller: string
}

/** A record as the checks read it, whatever its collection. */
export type Fields = Record<string, unknown>
export type Text<T = RuleInput> = (input: T) => string

/** A lookup of the record `name` of `collection` by its key. */
type Lookup = { name: string; collection: CollectionName; key: Text; message: Text }

/**
 * One precondition, failing with the status its comment gives. `record` names the record an
 * earlier `exists` (or `find`) loaded; messages are the backend's, word for word. Declared
 * with `rulesOn`, which checks each against the record's type.
 */
export type Precondition =
  /** 404 unless the record exists; with `owner`, someone else's is reported missing too. */
  | ({ kind: 'exists'; owner?: string } & Lookup)
  /** 409 when the record exists (following twice). */
  | ({ kind: 'absent' } & Lookup)
  /** 403 unless the field is the caller (`caller`), or the array field holds it (`callerIn`). */
  | { kind: 'caller' | 'callerIn'; record: string; field: string; message: string }
  /** 409 unless the field is one of `values` (`oneOf`), or when it is (`noneOf`). */
  | {
      kind: 'oneOf' | 'noneOf'
      record: string
      field: string
      values: readonly unknown[]
      message(record: Fields): string
    }
  /** 409 when an item of the array field `list` has `by` equal to the caller (signed twice). */
  | { kind: 'notActed'; record: string; list: string; by: string; message(record: Fields): string }
  /**
   * 409 when the field already has the body's value `body` (`differs`); 400 when the body's
   * number `body`, if sent, is above the field (`atMost`).
   */
  | {
      kind: 'differs' | 'atMost'
      record: string
      field: string
      body: string
      message(record: Fields): string
    }
  /**
   * 409 unless a record of `collection` points at `record` by `link` and has the values of
   * `where`: a lookup by fields that are not the key (a listing's pending review).
   */
  | {
      kind: 'find'
      name: string
      record: string
      collection: CollectionName
      link: string
      where: Readonly<Fields>
      message(record: Fields): string
    }
  /** 400 when `value` is the caller (following yourself). */
  | { kind: 'notCaller'; value: Text; message: string }

/** What an operation's writes and answer are given. */
export interface EffectContext extends RuleInput {
  store: Store
  now: Date
  /** The records the preconditions loaded, by name (`rulesOn(...).of` reads one typed). */
  records: Record<string, Fields>
  /** The keys the `exists` and `absent` preconditions looked up, and `find`s found, by name. */
  keys: Record<string, string>
}

/** A field's new value: a constant, or worked out from the request and its time. */
export type Value<T = unknown> = T | ((context: EffectContext) => T)

/**
 * A write the learner knows the result of: `update` sets fields of a loaded record (and
 * `draft` the fields no precondition reads), `insert` creates the record an `absent`
 * checked, `act` records the caller's action in a `notActed` list.
 */
export type Effect =
  | { update: string; set: Readonly<Fields>; draft?(draft: Fields, context: EffectContext): void }
  | { insert: string; record(context: EffectContext): Fields }
  | { act: string; draft(draft: Fields, context: EffectContext): void }

/** The rules of an operation declared as data. */
export interface DeclaredRules {
  requires: readonly Precondition[]
  effects?: readonly Effect[]
  /** Writes nothing reads back (notifications, e-mails, receipts), after the effects. */
  after?: (context: EffectContext) => Promise<void>
  /** The answer's body: a constant, or the listed fields of a loaded record. */
  answer: unknown
  shows?: { record: string; fields: readonly string[] }
}

/** The status a failed precondition answers. */
export function statusOf(precondition: Precondition): number {
  switch (precondition.kind) {
    case 'exists':
      return 404
    case 'caller':
    case 'callerIn':
      return 403
    case 'atMost':
    case 'notCaller':
      return 400
    default:
      return 409
  }
}

const table = (store: Store, collection: CollectionName) =>
  store[collection] as unknown as Table<Fields>

/** The refusal of `precondition`, or `undefined` when it holds; loads records into `context`. */
function check(precondition: Precondition, context: EffectContext): SandboxError | undefined {
  const { records, caller } = context
  const p = precondition
  // The record an earlier precondition loaded that this one reads.
  const record: Fields = 'record' in p ? records[p.record]! : {}
  switch (p.kind) {
    case 'exists': {
      const record = table(context.store, p.collection).get(context.keys[p.name]!)
      if (!record || (p.owner !== undefined && record[p.owner] !== caller)) {
        return notFound(p.message(context))
      }
      records[p.name] = record
      return undefined
    }
    case 'absent':
      return table(context.store, p.collection).has(context.keys[p.name]!)
        ? conflict(p.message(context))
        : undefined
    case 'caller':
      return record[p.field] === caller ? undefined : forbidden(p.message)
    case 'callerIn':
      return (record[p.field] as unknown[]).includes(caller) ? undefined : forbidden(p.message)
    case 'oneOf':
    case 'noneOf': {
      const among = p.values.includes(record[p.field])
      return among === (p.kind === 'oneOf') ? undefined : conflict(p.message(record))
    }
    case 'notActed': {
      const acted = (record[p.list] as Fields[]).some((item) => item[p.by] === caller)
      return acted ? conflict(p.message(record)) : undefined
    }
    case 'differs':
      return record[p.field] === context.body[p.body] ? conflict(p.message(record)) : undefined
    case 'atMost': {
      const value = context.body[p.body]
      return typeof value === 'number' && value > (record[p.field] as number)
        ? badRequest('Validation failed', [p.message(record)])
        : undefined
    }
    case 'find': {
      const key = context.keys[p.record]
      const found = table(context.store, p.collection).find(
        (row) =>
          row[p.link] === key && Object.entries(p.where).every(([field, v]) => row[field] === v),
      )
      if (!found) return conflict(p.message(record))
      records[p.name] = found
      context.keys[p.name] = found[collectionDefinitions[p.collection].key] as string
      return undefined
    }
    case 'notCaller':
      return p.value(context) === caller ? badRequest('Validation failed', [p.message]) : undefined
  }
}

/** The value `value` stands for in `context`. */
export const valueIn = (value: unknown, context: EffectContext): unknown =>
  typeof value === 'function' ? value(context) : value

/** What `effect` writes into `draft`, a copy of the record it names. */
export function applyEffect(effect: Effect, draft: Fields, context: EffectContext): void {
  if ('set' in effect) {
    for (const [field, value] of Object.entries(effect.set)) draft[field] = valueIn(value, context)
  }
  if ('draft' in effect) effect.draft?.(draft, context)
}

/** Checks `rules` in order: the first that fails is thrown. Returns the answer and the writes. */
export function runRules(rules: DeclaredRules, context: EffectContext) {
  for (const precondition of rules.requires) {
    if (precondition.kind === 'exists' || precondition.kind === 'absent') {
      context.keys[precondition.name] = precondition.key(context)
    }
    const refusal = check(precondition, context)
    if (refusal) throw refusal
  }
  const { shows, effects, after } = rules
  let body = rules.answer
  if (shows) {
    const shown = context.records[shows.record]
    const fields: Record<string, unknown> = {}
    for (const field of shows.fields) fields[field] = clonePlain(shown![field])
    body = fields
  }
  // A read declares no writes: no function to call, so its answer waits for nothing.
  if (!effects && !after) return { body }
  return {
    body,
    async apply() {
      for (const effect of effects ?? []) await write(rules, effect, context)
      await after?.(context)
    },
  }
}

async function write(rules: DeclaredRules, effect: Effect, context: EffectContext) {
  const name = 'update' in effect ? effect.update : 'insert' in effect ? effect.insert : effect.act
  // The record the precondition named `name` looked up (`exists`, `absent`) or found (`find`).
  const named = rules.requires.find((p) => 'name' in p && p.name === name)
  if (!named || !('collection' in named)) {
    throw new Error(`Failed to write: no precondition names "${name}"`)
  }
  const [records, key] = [table(context.store, named.collection), context.keys[name]!]
  if ('insert' in effect) return void (await records.insert(effect.record(context)))
  await records.update(key, (draft) => applyEffect(effect, draft, context))
}
