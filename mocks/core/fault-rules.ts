/**
 * @module
 * What a fault rule is: its strict zod schema, its path pattern, and the checks that need the
 * operation table (a pattern matching no operation, an example the operation lacks).
 */
import { z } from '../model/zod.ts'
import { badRequest, type ErrorStatus, errorCodes } from './errors.ts'
import type { Operation } from './operation.ts'
import { pathParts } from './router.ts'
import { SESSION_ID, SESSION_ID_RULE } from './session-id.ts'
import { describeIssues } from './validation.ts'

/** Longest delay a rule or a `Prefer: delay=` may ask for, in milliseconds. */
export const MAX_DELAY_MS = 60_000

/**
 * Statuses a fault can answer: those `ApiErrorResponseDto` has a code for, but 405, 408 and 431,
 * which belong to the HTTP layer (method, slow or oversized headers), not an operation.
 */
const transportStatuses = new Set([405, 408, 431])
export const faultStatuses = Object.keys(errorCodes)
  .map(Number)
  .filter((status) => !transportStatuses.has(status)) as ErrorStatus[]

/** Statuses whose answer tells the client when to retry (`Retry-After`). */
export const retryAfterStatuses: readonly ErrorStatus[] = [429, 503]

export const DEFAULT_RETRY_AFTER_SECONDS = 1
const MAX_RETRY_AFTER_SECONDS = 86_400

/** Most rules a session holds, calls a `times` rule counts, and characters of its texts. */
export const MAX_FAULT_RULES = 100
const MAX_TIMES = 1_000_000
const text = () => z.string().check(z.minLength(1), z.maxLength(1_000))

const delay = z.number().check(z.int(), z.gte(0), z.lte(MAX_DELAY_MS))

export const faultRuleSchema = z.strictObject({
  /** Default: `f1`, `f2`... A rule's id follows the session id's rule. */
  id: z.optional(z.string().check(z.regex(SESSION_ID, SESSION_ID_RULE))),
  /** `*` (the default) for any method. */
  method: z.optional(
    z.pipe(
      z
        .string()
        .check(
          z.regex(/^(\*|[A-Za-z]{1,16})$/, 'must be an HTTP method such as GET, or * for any'),
        ),
      z.transform((value) => value.toUpperCase()),
    ),
  ),
  /** `/bookings/:id/decline`, `/bookings/bkg_pending/decline`, `/admin/reviews/*\/approve`. */
  path: text().check(z.startsWith('/')),
  /** Only requests signed in as this persona (its key). */
  persona: z.optional(text()),
  /** Answer this status with an `ApiErrorResponseDto` body, of `message` and `details`. */
  status: z.optional(
    z.number().check(
      z.int(),
      z.refine((value) => (faultStatuses as number[]).includes(value), {
        message: `must be one of: ${faultStatuses.join(', ')}`,
      }),
    ),
  ),
  message: z.optional(text()),
  details: z.optional(z.array(z.string().check(z.maxLength(1_000))).check(z.maxLength(20))),
  /** `Retry-After` of a 429 or 503 answer (default 1). */
  retryAfterSeconds: z.optional(
    z.number().check(z.int(), z.gte(0), z.lte(MAX_RETRY_AFTER_SECONDS)),
  ),
  /** A recorded example of the operation (`spec/examples`). */
  example: z.optional(text()),
  /** Fail like a broken network: connection reset (server), `HttpResponse.error()` (msw). */
  networkError: z.optional(z.literal(true)),
  delayMs: z.optional(delay),
  /** Add a random 0 to `jitterMs` ms (seeded) to the delay. */
  jitterMs: z.optional(delay),
  times: z.optional(z.number().check(z.int(), z.gt(0), z.lte(MAX_TIMES))),
  /** Apply to each matching call with this probability (seeded, reproducible). */
  probability: z.optional(z.number().check(z.gte(0), z.lte(1))),
  /** Of `probability` and `jitterMs`. Default: the session's scenario seed. */
  seed: z.optional(z.number().check(z.int(), z.gte(0))),
})

export type FaultRuleInput = z.input<typeof faultRuleSchema>
type ParsedRule = z.output<typeof faultRuleSchema>

export interface FaultRule extends Omit<ParsedRule, 'id' | 'method'> {
  id: string
  method: string
}

/** A rule after validation, with the operations its pattern covers. */
export interface CompiledRule {
  rule: FaultRule
  /** Pattern segments; `null` matches any non-empty segment. */
  segments: (string | null)[]
  operations: ReadonlySet<Operation>
  /** Calls left when the rule has `times`. */
  remaining: number
  /** How many answers it made or delayed. */
  fired: number
  /** Draws in [0, 1) from the rule's seed; `state` is where the draws are (kept, restored). */
  random: SeededRandom
}

export type SeededRandom = (() => number) & { state: number }

/** mulberry32: small, fast and good enough to make fault draws reproducible. */
export function seededRandom(seed: number): SeededRandom {
  const random = () => {
    random.state = (random.state + 0x6d2b79f5) >>> 0
    let t = random.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  random.state = seed >>> 0
  return random
}

function patternSegments(path: string): (string | null)[] {
  return pathParts(path).map((part) =>
    part === '*' || /^(:\w+|\{\w+\})$/.test(part) ? null : part,
  )
}

/** Whether request path segments match a pattern: wildcards match any non-empty segment. */
export function segmentsMatch(pattern: readonly (string | null)[], parts: readonly string[]) {
  if (pattern.length !== parts.length) return false
  for (let i = 0; i < parts.length; i++) {
    const expected = pattern[i]
    if (expected === null ? parts[i] === '' : expected !== parts[i]) return false
  }
  return true
}

function coveredOperations(
  segments: readonly (string | null)[],
  method: string,
  operations: readonly Operation[],
): Operation[] {
  return operations.filter((operation) => {
    if (method !== '*' && operation.method !== method) return false
    const template = operation.path.split('/').slice(1)
    if (template.length !== segments.length) return false
    return segments.every((segment, i) => {
      const part = template[i]!
      return segment === null || part.startsWith('{') || part === segment
    })
  })
}

export function exampleNames(operation: Operation): string[] {
  return Object.keys(operation.examples ?? {})
}

/** Validates a rule against the schema and the operation table; a 400 lists every problem. */
export function compileRule(
  input: unknown,
  id: string,
  defaultSeed: number,
  operations: readonly Operation[],
  personaKeys: readonly string[],
): CompiledRule {
  const parsed = faultRuleSchema.safeParse(input, { reportInput: true })
  if (!parsed.success) {
    throw badRequest('Invalid fault rule', describeIssues(parsed.error.issues, 'rule'))
  }
  const data = parsed.data
  const rule: FaultRule = { ...data, id: data.id ?? id, method: data.method ?? '*' }
  const details: string[] = []
  const segments = patternSegments(rule.path)
  const covered = coveredOperations(segments, rule.method, operations)
  if (covered.length === 0) {
    details.push(
      `path ${rule.method === '*' ? '' : `${rule.method} `}${rule.path} matches no operation (known: ${operations.map((o) => `${o.method} ${o.path}`).join(', ')})`,
    )
  }
  const answers = [rule.status, rule.example, rule.networkError].filter((v) => v !== undefined)
  if (answers.length > 1) details.push('give only one of status, example, networkError')
  if (answers.length === 0 && rule.delayMs === undefined && rule.jitterMs === undefined) {
    details.push('give one of status, example, networkError, or a delayMs or jitterMs')
  }
  if ((rule.message !== undefined || rule.details !== undefined) && rule.status === undefined) {
    details.push('message and details go with status')
  }
  if (
    rule.retryAfterSeconds !== undefined &&
    !(retryAfterStatuses as readonly number[]).includes(rule.status ?? 0)
  ) {
    details.push(`retryAfterSeconds goes with status ${retryAfterStatuses.join(' or ')}`)
  }
  if ((rule.delayMs ?? 0) + (rule.jitterMs ?? 0) > MAX_DELAY_MS) {
    details.push(`delayMs plus jitterMs must not be greater than ${MAX_DELAY_MS}`)
  }
  if (rule.times !== undefined && rule.probability !== undefined) {
    details.push('give times or probability, not both')
  }
  if (rule.persona !== undefined && !personaKeys.includes(rule.persona)) {
    details.push(`persona must be one of: ${personaKeys.join(', ')}`)
  }
  if (rule.example !== undefined && covered.length > 0) {
    for (const operation of covered) {
      const names = exampleNames(operation)
      if (!names.includes(rule.example)) {
        details.push(
          `example "${rule.example}" is not a recorded example of ${operation.id} (known: ${names.join(', ') || 'none'})`,
        )
      }
    }
  }
  if (details.length > 0) throw badRequest('Invalid fault rule', details)
  return {
    rule,
    segments,
    operations: new Set(covered),
    remaining: rule.times ?? Number.POSITIVE_INFINITY,
    fired: 0,
    random: seededRandom(rule.seed ?? defaultSeed),
  }
}
