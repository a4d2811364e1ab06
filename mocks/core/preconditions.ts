/**
 * @module
 * The vocabulary operations declare their rules with: the preconditions on the state, in the
 * order the backend checks them, and the writes, each declared on a record (`rulesOn`) and so
 * checked against its collection's record type. The pipeline checks and applies them here;
 * the learner reads the same declarations backwards (a recorded 404 is a failed `exists`).
 */
import { type CollectionName, collectionDefinitions, type RecordOf } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import { clonePlain } from '../model/table.ts'
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
type Text<T = RuleInput> = (input: T) => string
type Field<R> = keyof R & string
/** The fields of `R` that hold a list, and the fields of an item of the list `L`. */
type List<R> = string extends keyof R
  ? string
  : { [F in Field<R>]: R[F] extends readonly unknown[] ? F : never }[Field<R>]
type ItemField<T> = Field<T extends readonly (infer Item)[] ? Item : never>

/** A precondition on a record an earlier `exists` (or `find`) loaded; `R` is its type. */
type Check<R> =
  /** 403 unless the field is the caller (`caller`), or the list holds it (`callerIn`). */
  | { kind: 'caller'; field: Field<R>; message: string }
  | { kind: 'callerIn'; field: List<R>; message: string }
  /** 409 unless the field is one of `values` (`oneOf`), or when it is (`noneOf`). */
  | {
      [F in Field<R>]: {
        kind: 'oneOf' | 'noneOf'
        field: F
        values: readonly R[F][]
        message(record: R): string
      }
    }[Field<R>]
  /** 409 when an item of the list has `by` equal to the caller (signed twice). */
  | {
      [L in List<R>]: { kind: 'notActed'; list: L; by: ItemField<R[L]>; message(record: R): string }
    }[List<R>]
  /**
   * 409 when the field already has the body's value `body` (`differs`); 400 when the body's
   * number `body`, if sent, is above the field (`atMost`).
   */
  | { kind: 'differs' | 'atMost'; field: Field<R>; body: string; message(record: R): string }

/**
 * One precondition, failing with the status its comment gives. `record` names the record an
 * earlier `exists` (or `find`) loaded; messages are the backend's, word for word.
 */
export type Precondition =
  /** 404 unless the record exists; with `owner`, someone else's is reported missing too. */
  | {
      kind: 'exists'
      name: string
      collection: CollectionName
      key: Text
      owner?: string
      message: Text
    }
  /** 409 when the record exists (following twice). */
  | { kind: 'absent'; name: string; collection: CollectionName; key: Text; message: Text }
  | (Check<Fields> & { record: string })
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
  /** The keys the `exists` and `absent` preconditions looked up, by name. */
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

/**
 * The rules on the record `name` of `collection`, each checked against that collection's
 * record type: a field it does not have, or a value its schema refuses, fails to compile.
 */
export function rulesOn<C extends CollectionName>(collection: C, name: string) {
  type R = RecordOf<C>
  return {
    name,
    collection,
    exists: (rule: { key: Text; owner?: Field<R>; message: Text }): Precondition => ({
      kind: 'exists',
      name,
      collection,
      ...rule,
    }),
    absent: (rule: { key: Text; message: Text }): Precondition => ({
      kind: 'absent',
      name,
      collection,
      ...rule,
    }),
    check: (rule: Check<R>): Precondition => ({ ...(rule as Check<Fields>), record: name }),
    /** This record, found as the one of `collection` that points at `parent` by `link`. */
    find: <P extends CollectionName>(
      parent: { name: string; collection: P },
      rule: { link: Field<R>; where: Partial<R>; message(record: RecordOf<P>): string },
    ): Precondition => ({ kind: 'find', name, record: parent.name, collection, ...rule }),
    update: (effect: {
      set: { readonly [F in Field<R>]?: Value<R[F]> }
      draft?(draft: R, context: EffectContext): void
    }): Effect => ({ update: name, ...effect }),
    insert: (record: (context: EffectContext) => R): Effect => ({ insert: name, record }),
    act: (draft: (draft: R, context: EffectContext) => void): Effect => ({ act: name, draft }),
    shows: (fields: readonly Field<R>[]) => ({ record: name, fields }),
    /** The record as the preconditions loaded it, for the writes nothing reads back. */
    of: ({ records }: Pick<EffectContext, 'records'>) => records[name] as R,
  }
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
  store[collection] as unknown as {
    get(key: string): Fields | undefined
    has(key: string): boolean
    find(match: (row: Fields) => boolean): Fields | undefined
    insert(row: Fields): Promise<unknown>
    update(key: string, mutate: (draft: Fields) => void): Promise<unknown>
  }

/** The refusal of `precondition`, or `undefined` when it holds; loads records into `context`. */
function check(precondition: Precondition, context: EffectContext): SandboxError | undefined {
  const { records, caller } = context
  const p = precondition
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
      return records[p.record]![p.field] === caller ? undefined : forbidden(p.message)
    case 'callerIn':
      return (records[p.record]![p.field] as unknown[]).includes(caller)
        ? undefined
        : forbidden(p.message)
    case 'oneOf':
    case 'noneOf': {
      const record = records[p.record]!
      const among = p.values.includes(record[p.field])
      return among === (p.kind === 'oneOf') ? undefined : conflict(p.message(record))
    }
    case 'notActed': {
      const record = records[p.record]!
      const acted = (record[p.list] as Fields[]).some((item) => item[p.by] === caller)
      return acted ? conflict(p.message(record)) : undefined
    }
    case 'differs': {
      const record = records[p.record]!
      return record[p.field] === context.body[p.body] ? conflict(p.message(record)) : undefined
    }
    case 'atMost': {
      const record = records[p.record]!
      const value = context.body[p.body]
      return typeof value === 'number' && value > (record[p.field] as number)
        ? badRequest('Validation failed', [p.message(record)])
        : undefined
    }
    case 'find': {
      const parent = records[p.record]!
      const key = context.keys[p.record]
      const found = table(context.store, p.collection).find(
        (row) =>
          row[p.link] === key && Object.entries(p.where).every(([field, v]) => row[field] === v),
      )
      if (!found) return conflict(p.message(parent))
      records[p.name] = found
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

/** The collection and key of the record `name` names. */
function locate(rules: DeclaredRules, name: string, context: EffectContext) {
  for (const p of rules.requires) {
    if ((p.kind === 'exists' || p.kind === 'absent') && p.name === name) {
      return { collection: p.collection, key: context.keys[name]! }
    }
    if (p.kind === 'find' && p.name === name) {
      const { key } = collectionDefinitions[p.collection]
      return { collection: p.collection, key: context.records[name]![key] as string }
    }
  }
  throw new Error(`Failed to write: no precondition names "${name}"`)
}

async function write(rules: DeclaredRules, effect: Effect, context: EffectContext) {
  const name = 'update' in effect ? effect.update : 'insert' in effect ? effect.insert : effect.act
  const { collection, key } = locate(rules, name, context)
  const records = table(context.store, collection)
  if ('insert' in effect) return void (await records.insert(effect.record(context)))
  await records.update(key, (draft) => applyEffect(effect, draft, context))
}
