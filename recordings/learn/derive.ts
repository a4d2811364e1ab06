/**
 * @module
 * What a recorded answer says about the state, read from the operation's declared rules
 * backwards: the preconditions before the one that failed held, that one failed (a recorded
 * 404 is the first `exists`), and a write changed what its effects say.
 */
import type { Operation } from '../../mocks/core/index.ts'
import {
  applyEffect,
  type DeclaredRules,
  type Effect,
  type EffectContext,
  type Precondition,
  type RuleInput,
  statusOf,
  valueIn,
} from '../../mocks/core/index.ts'
import { collectionDefinitions, references } from '../../mocks/model/schemas.ts'
import type { Store } from '../../mocks/model/store.ts'
import { z } from '../../mocks/model/zod.ts'
import { parseJson } from '../replay/recordings.ts'
import { type Fact, type Facts, NotCovered } from './facts.ts'

/** One exchange that passed the input checks; `base` is the scenario extended, `answer` text. */
export interface Recorded extends RuleInput {
  facts: Facts
  base: Store
  status: number
  answer: string
  /** Not `dryRun=true`. */
  writes: boolean
  /** The operation's writes (`rules.effects`). */
  effects?: readonly Effect[] | undefined
}

type Find = Extract<Precondition, { kind: 'find' }>
/** The records an operation's preconditions named so far, by name. */
type Named = Map<string, Fact>
type NotActed = Extract<Precondition, { kind: 'notActed' }>
type OneOf = Extract<Precondition, { kind: 'oneOf' | 'noneOf' }>

/** Collections other records point at: a record of the base is not removed from them. */
const REFERENCED = new Set(Object.values(references).flatMap((list) => list.map((r) => r.target)))

/** What precondition `p` holding (or failing) says about the records `named` so far. */
function learnPrecondition(p: Precondition, failed: boolean, input: Recorded, named: Named) {
  const { facts, caller } = input
  if (p.kind === 'exists' || p.kind === 'absent') {
    const fact = facts.fact(p.collection, p.key(input))
    named.set(p.name, fact)
    if (p.kind === 'absent') return facts.exists(fact, failed)
    if (!failed) {
      facts.exists(fact, true)
      return p.owner === undefined ? undefined : facts.pin(fact, p.owner, caller)
    }
    const inBase = input.base[p.collection].has(fact.key)
    if (p.owner === undefined) {
      if (fact.exists === undefined && REFERENCED.has(fact.collection) && inBase) {
        throw new NotCovered(
          `${fact.collection} ${fact.key} is part of the scenario extended, and other records point at it`,
        )
      }
      return facts.exists(fact, false)
    }
    // Someone else's record is missing too: one that exists keeps existing.
    const known = fact.exists ?? (inBase ? true : undefined)
    facts.exists(fact, known === true)
    return known ? facts.exclude(fact, p.owner, [caller]) : undefined
  }
  if (p.kind === 'notCaller') return
  const fact = named.get(p.record)!
  const one = (values: readonly unknown[], yes: boolean, field: string) => {
    if (yes) facts.exclude(fact, field, values)
    else if (values.length === 1) facts.pin(fact, field, values[0])
  }
  switch (p.kind) {
    case 'caller':
      return one([caller], failed, p.field)
    case 'callerIn':
      return facts.pin(fact, `${p.field}:${caller}`, !failed)
    case 'oneOf':
      if (failed && p.values.includes(null)) madeBy(input, fact, p.field, p)
      return one(p.values, failed, p.field)
    case 'noneOf':
      return one(p.values, !failed, p.field)
    case 'notActed':
      if (failed) madeBy(input, fact, `${p.list}:${caller}`, p)
      return facts.pin(fact, `${p.list}:${caller}`, failed)
    case 'differs':
      return one([input.body[p.body]], !failed, p.field)
    case 'atMost': {
      const amount = input.body[p.body] as number
      return facts.bound(fact, p.field, failed ? { below: amount } : { min: amount })
    }
    case 'find':
      named.set(p.name, fact)
      facts.assign(fact.finds, p.collection, p)
      return findRecord(p, failed, facts, fact)
  }
}

/**
 * A record shown already written (archived, signed by the caller) was written before the first
 * exchange by the operation's own write, by the caller, with no body (that was sent for this one).
 */
function madeBy(input: Recorded, fact: Fact, field: string, { kind, record }: NotActed | OneOf) {
  const effect = input.effects?.find((e) =>
    kind === 'notActed'
      ? 'act' in e && e.act === record
      : 'set' in e && e.update === record && Object.hasOwn(e.set, field),
  )
  if (!effect) return
  const by = { ...input, body: {}, store: input.base, records: {}, keys: {} }
  input.facts.assign(fact.made, field, (draft, now) => applyEffect(effect, draft, { ...by, now }))
}

/**
 * A lookup by fields that are not the key (a listing's pending review) counts on the record it
 * points at the matches writes used up (`<collection>:used`), those it had at the start
 * (`:needed`), and whether an answer showed none left (`:none`).
 */
function findRecord(p: Find, failed: boolean, facts: Facts, fact: Fact) {
  const field = (name: string) => `${p.collection}:${name}`
  const count = (name: string) => (fact.current[field(name)] as number | undefined) ?? 0
  const [used, needed] = [count('used'), count('needed')]
  const where = Object.entries(p.where).map(([name, value]) => `${name} ${value}`)
  const what = `${fact.collection} ${fact.key}: had`
  if (failed) {
    if (needed > used) {
      const by = facts.where(fact, field('needed'))
      throw new NotCovered(
        `${what} one of ${p.collection} (${where.join(', ')})${by} that no write used up`,
      )
    }
    return facts.set(fact, field('none'), true)
  }
  if (fact.current[field('none')] === true) {
    const by = facts.where(fact, field('none'))
    throw new NotCovered(`${what} none of ${p.collection} (${where.join(', ')}) left${by}`)
  }
  if (needed < used + 1) facts.set(fact, field('needed'), used + 1)
}

/** What an answer of `operation` says about the state before it, and its write after. */
export function learnAnswer(operation: Operation, input: Recorded) {
  const rules = operation.rules
  if (!rules) throw new NotCovered(`${operation.id} is not learned yet`)
  const { facts, status } = input
  const succeeded = status === operation.successStatus
  const named: Named = new Map()
  for (const p of rules.requires) {
    // What the request alone decides needs no fact.
    if (p.kind === 'notCaller') {
      if (p.value(input) !== input.caller) continue
      if (status === statusOf(p)) return
      throw new NotCovered(`${p.message}: the sandbox answers 400, the recording ${status}`)
    }
    if (p.kind === 'atMost' && typeof input.body[p.body] !== 'number') continue
    const failed = !succeeded && statusOf(p) === status
    learnPrecondition(p, failed, input, named)
    if (failed) return
  }
  if (!succeeded) {
    throw new NotCovered(`status ${status}: the sandbox never answers it for this operation`)
  }
  if (input.writes) learnEffects(rules, input, named)
  if (rules.shows) {
    const fact = named.get(rules.shows.record)!
    const shown = parseJson(input.answer) as Record<string, unknown> | null | undefined
    if (shown === null || typeof shown !== 'object') return
    const { shape } = collectionDefinitions[fact.collection].schema as z.ZodMiniObject
    for (const field of rules.shows.fields) {
      const value = z.safeParse(shape[field]!, shown[field])
      if (value.success) facts.pin(fact, field, value.data)
    }
  }
}

function learnEffects(rules: DeclaredRules, input: Recorded, named: Named) {
  const { facts } = input
  const context = { ...input, store: input.base, now: new Date(0), records: {}, keys: {} }
  for (const effect of rules.effects ?? []) {
    if ('insert' in effect) {
      facts.create(named.get(effect.insert)!)
      continue
    }
    const name = 'update' in effect ? effect.update : effect.act
    const fact = named.get(name)!
    const find = rules.requires.find((p): p is Find => p.kind === 'find' && p.name === name)
    if (find) {
      // The record found is decided: one fewer matches.
      const used = `${find.collection}:used`
      facts.set(fact, used, ((fact.current[used] as number | undefined) ?? 0) + 1)
    } else if ('update' in effect) {
      for (const [field, value] of Object.entries(effect.set)) {
        facts.set(fact, field, valueIn(value, context as EffectContext))
      }
    } else {
      const acted = rules.requires.find((p) => p.kind === 'notActed' && p.record === name)
      facts.set(fact, `${(acted as NotActed).list}:${input.caller}`, true)
    }
  }
}
