/**
 * @module
 * What the recorded exchanges showed about each record: whether it existed at the start, the
 * values its fields had (or could not have had), what the exchanges since changed. A fact that
 * contradicts an earlier one is a {@link NotCovered}.
 */
import { dequal } from 'dequal'
import type { Fields, Precondition } from '../../mocks/core/index.ts'
import type { CollectionName } from '../../mocks/model/schemas.ts'

/** An exchange the learned scenario cannot reproduce, and why. */
export class NotCovered extends Error {
  override readonly name = 'NotCovered'
}

/** What is known of one record: its existence and fields at the start and now, once shown. */
export interface Fact {
  readonly collection: CollectionName
  readonly key: string
  initialExists?: boolean
  exists?: boolean
  readonly initial: Record<string, unknown>
  readonly current: Record<string, unknown>
  /** Values a field could not have had at the start, and a number field's bounds there. */
  readonly excluded: Record<string, unknown[]>
  readonly bounds: Record<string, Bounds>
  /** The exchange that last told each field, `(exists)`, or `!field` (an exclusion). */
  readonly by: Record<string, number>
  /** The exchanges that showed something about it, in order. */
  readonly origins: number[]
  /** Writes it had before the first exchange (archived, signed by someone), by field. */
  readonly made: Record<string, (draft: Fields, now: Date) => void>
  /** The lookups that found records pointing at it, by their collection. */
  readonly finds: Record<string, Extract<Precondition, { kind: 'find' }>>
}

export type Bounds = { min?: number; below?: number }

/** Whether `value` is out of `bounds`: below `min`, or not below `below`. */
export const outOf = ({ min, below }: Bounds, value: number) =>
  (min !== undefined && value < min) || (below !== undefined && value >= below)

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** The facts of every record, with an undo log so that one exchange's facts go together. */
export class Facts {
  readonly collections: Partial<Record<CollectionName, Map<string, Fact>>> = {}
  /** What undoes each change the current exchange made, in order. */
  private undo: Array<() => void> = []
  /** The exchange being read (its index in `log.entries`). */
  entry = -1

  begin(index: number): void {
    this.entry = index
    this.undo = []
  }

  /** Forgets everything the current exchange added. */
  rollback(): void {
    for (const undo of this.undo.reverse()) undo()
    this.undo = []
  }

  /** Sets `field` of `target` (a fact's part) until a rollback. */
  assign<T extends object, K extends keyof T & string>(target: T, field: K, value: T[K]): void {
    const previous = target[field]
    this.undo.push(
      Object.hasOwn(target, field) ? () => (target[field] = previous) : () => delete target[field],
    )
    target[field] = value
  }

  of(collection: CollectionName): Map<string, Fact> {
    this.collections[collection] ??= new Map()
    return this.collections[collection]
  }

  /** The fact of a record, created empty on first use. */
  fact(collection: CollectionName, key: string): Fact {
    const facts = this.of(collection)
    let fact = facts.get(key)
    if (!fact) {
      fact = {
        collection,
        key,
        initial: {},
        current: {},
        excluded: {},
        bounds: {},
        by: {},
        origins: [],
        made: {},
        finds: {},
      }
      facts.set(key, fact)
      this.undo.push(() => facts.delete(key))
    }
    const { origins } = fact
    if (origins.at(-1) !== this.entry) {
      origins.push(this.entry)
      this.undo.push(() => origins.pop())
    }
    return fact
  }

  /** ` by #3`: the exchange that last told `field`. */
  where(fact: Fact, field: string): string {
    const index = fact.by[field]
    return index === undefined ? '' : ` by #${index + 1}`
  }

  /** The record existed (or did not) when the current exchange was answered. */
  exists(fact: Fact, yes: boolean): void {
    if (fact.exists !== undefined) {
      if (fact.exists !== yes) {
        throw new NotCovered(
          `${fact.collection} ${fact.key} ${fact.exists ? 'was shown to exist' : 'was shown not to exist'}${this.where(fact, '(exists)')}`,
        )
      }
      return
    }
    this.assign(fact, 'initialExists', yes)
    this.create(fact, yes)
  }

  /** The record was created (or removed) by the current exchange. */
  create(fact: Fact, yes = true): void {
    this.assign(fact, 'exists', yes)
    this.assign(fact.by, '(exists)', this.entry)
  }

  /** `field` had `value` when the current exchange was answered. */
  pin(fact: Fact, field: string, value: unknown): void {
    if (Object.hasOwn(fact.current, field)) {
      if (!dequal(fact.current[field], value)) {
        throw new NotCovered(
          `${fact.collection} ${fact.key}: ${field} would have to be ${show(value)}, but was ${show(fact.current[field])}${this.where(fact, field)}`,
        )
      }
      return
    }
    if ((fact.excluded[field] ?? []).some((other) => dequal(other, value))) {
      throw new NotCovered(
        `${fact.collection} ${fact.key}: ${field} would have to be ${show(value)}, which${this.where(fact, `!${field}`)} it could not be`,
      )
    }
    const bound = fact.bounds[field]
    if (typeof value === 'number' && bound && outOf(bound, value)) {
      throw new NotCovered(
        `${fact.collection} ${fact.key}: ${field} ${value} is out of the bounds shown before`,
      )
    }
    this.assign(fact.initial, field, value)
    this.set(fact, field, value)
  }

  /** `field` had none of `values` when the current exchange was answered. */
  exclude(fact: Fact, field: string, values: readonly unknown[]): void {
    if (Object.hasOwn(fact.current, field)) {
      const value = fact.current[field]
      if (values.some((other) => dequal(other, value))) {
        throw new NotCovered(
          `${fact.collection} ${fact.key}: ${field} would have to be other than ${show(value)}, but was ${show(value)}${this.where(fact, field)}`,
        )
      }
      return
    }
    const list = [...(fact.excluded[field] ?? [])]
    for (const value of values) if (!list.some((other) => dequal(other, value))) list.push(value)
    this.assign(fact.excluded, field, list)
    this.assign(fact.by, `!${field}`, this.entry)
  }

  /** A number field was at least `min`, or below `below`, when the current exchange was answered. */
  bound(fact: Fact, field: string, limits: Bounds): void {
    const value = fact.current[field]
    if (typeof value === 'number') {
      if (outOf(limits, value)) {
        throw new NotCovered(
          `${fact.collection} ${fact.key}: ${field} was ${value}${this.where(fact, field)}, out of what this answer needs`,
        )
      }
      return
    }
    const bound = { ...fact.bounds[field] }
    if (limits.min !== undefined) bound.min = Math.max(bound.min ?? -Infinity, limits.min)
    if (limits.below !== undefined) bound.below = Math.min(bound.below ?? Infinity, limits.below)
    if (bound.min !== undefined && bound.below !== undefined && bound.min >= bound.below) {
      throw new NotCovered(
        `${fact.collection} ${fact.key}: ${field} cannot be both at least ${bound.min} and below ${bound.below}`,
      )
    }
    this.assign(fact.bounds, field, bound)
  }

  /** The current exchange wrote `value` into `field`. */
  set(fact: Fact, field: string, value: unknown): void {
    this.assign(fact.current, field, value)
    this.assign(fact.by, field, this.entry)
  }

  /** `from` is `into` (a user known by a refresh token, then by its token's subject). */
  merge(from: Fact, into: Fact): void {
    for (const [field, value] of Object.entries(from.initial)) this.pin(into, field, value)
    const { length } = into.origins
    into.origins.push(...from.origins)
    into.origins.sort((a, b) => a - b)
    const facts = this.of(from.collection)
    facts.delete(from.key)
    this.undo.push(() => {
      into.origins.length = length
      facts.set(from.key, from)
    })
  }
}
