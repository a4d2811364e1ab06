/**
 * @module
 * Rules declared on a record (`rulesOn('bookings', 'booking')`), checked against the record type
 * of its collection: a field it lacks, or a value its schema refuses, fails to compile.
 */
import type { CollectionName, RecordOf } from '../model/schemas.ts'
import type { Effect, EffectContext, Precondition, Text, Value } from './preconditions.ts'

type Field<R> = keyof R & string
/** The fields of `R` that hold a list. */
type List<R> = { [F in Field<R>]: R[F] extends readonly unknown[] ? F : never }[Field<R>]
type Item<T> = T extends readonly (infer One)[] ? One : never

/** The rules on the record `name` of `collection`, each failing as `Precondition` says. */
export function rulesOn<C extends CollectionName>(collection: C, name: string) {
  type R = RecordOf<C>
  type Message = (record: R) => string
  return {
    name,
    collection,
    exists: (rule: { key: Text; owner?: Field<R>; message: Text }) =>
      ({ kind: 'exists', name, collection, ...rule }) satisfies Precondition,
    absent: (rule: { key: Text; message: Text }) =>
      ({ kind: 'absent', name, collection, ...rule }) satisfies Precondition,
    caller: (field: Field<R>, message: string) =>
      ({ kind: 'caller', record: name, field, message }) satisfies Precondition,
    callerIn: (field: List<R>, message: string) =>
      ({ kind: 'callerIn', record: name, field, message }) satisfies Precondition,
    oneOf: <F extends Field<R>>(field: F, values: readonly R[F][], message: Message) =>
      ({ kind: 'oneOf', record: name, field, values, message }) satisfies Precondition,
    noneOf: <F extends Field<R>>(field: F, values: readonly R[F][], message: Message) =>
      ({ kind: 'noneOf', record: name, field, values, message }) satisfies Precondition,
    notActed: <L extends List<R>>(list: L, by: Field<Item<R[L]>>, message: Message) =>
      ({ kind: 'notActed', record: name, list, by, message }) satisfies Precondition,
    differs: (field: Field<R>, body: string, message: Message) =>
      ({ kind: 'differs', record: name, field, body, message }) satisfies Precondition,
    atMost: (field: Field<R>, body: string, message: Message) =>
      ({ kind: 'atMost', record: name, field, body, message }) satisfies Precondition,
    /** This record, found as the one of `collection` that points at `parent` by `link`. */
    find: <P extends CollectionName>(
      parent: { name: string; collection: P },
      rule: { link: Field<R>; where: Partial<R>; message(record: RecordOf<P>): string },
    ) => ({ kind: 'find', name, record: parent.name, collection, ...rule }) satisfies Precondition,
    update: (effect: {
      set: { readonly [F in Field<R>]?: Value<R[F]> }
      draft?(draft: R, context: EffectContext): void
    }) => ({ update: name, ...effect }) satisfies Effect,
    insert: (make: (context: EffectContext) => R) =>
      ({ insert: name, record: make }) satisfies Effect,
    act: (draft: (draft: R, context: EffectContext) => void) =>
      ({ act: name, draft }) satisfies Effect,
    shows: (fields: readonly Field<R>[]) => ({ record: name, fields }),
    /** The record as the preconditions loaded it, for the writes nothing reads back. */
    of: ({ records }: Pick<EffectContext, 'records'>) => records[name] as R,
  }
}
