/**
 * @module
 * The fault stage of a request: a `Prefer` header (Prism's syntax), then the session's fault
 * rules, counted down (`times`) or drawn (`probability`, seeded), made an answer or a delay.
 */
import type { User } from '../model/schemas.ts'
import { badRequest, type ErrorStatus, SandboxError } from './errors.ts'
import {
  type CompiledRule,
  compileRule,
  DEFAULT_RETRY_AFTER_SECONDS,
  exampleNames,
  type FaultRule,
  faultStatuses,
  MAX_DELAY_MS,
  MAX_FAULT_RULES,
  retryAfterStatuses,
  segmentsMatch,
} from './fault-rules.ts'
import { jsonResponse, type SandboxResponse } from './http.ts'
import { GATEWAY_STATUSES } from './journal.ts'
import type { Operation } from './operation.ts'
import type { RequestContext } from './request-context.ts'
import { pathParts } from './router.ts'
import type { SessionRegistry } from './sessions.ts'
import type { ControlChange } from './shared-control.ts'
import type { Stage } from './stage.ts'

/**
 * What a fault rule or a `Prefer` header makes of a request: none but a delay, an answer given
 * before any check (a rule's, a gateway's), or one in place of the operation's outcome.
 */
export interface FaultDecision {
  /** Marks the journal entry: the rule's id, or `prefer`. */
  mark: string
  delayMs: number
  answer?: SandboxResponse
  /**
   * `Prefer: example=` or a code not a gateway's: what answers once the request passed the body
   * parser, the guards and validation (decision 12); throws the 400 of an invalid header.
   */
  outcome?: () => SandboxResponse
}

type PersonaOf = (user: Readonly<User> | null) => string | undefined

/** A rule as the control API shows it: how often it fired, calls left for a `times` rule. */
export type ListedRule = FaultRule & { fired: number; remaining?: number }

/** Response header that names the fault rule (or `prefer`) behind an answer. */
export const FAULT_HEADER = 'x-sandbox-fault'

export function markFault(answer: SandboxResponse, mark: string): SandboxResponse {
  return { ...answer, headers: { ...answer.headers, [FAULT_HEADER]: mark } }
}

/** A network failure: each runtime breaks the connection its own way. */
const NETWORK_ERROR: SandboxResponse = Object.freeze({
  status: 0,
  headers: {},
  setCookie: [],
  body: undefined,
  networkError: true,
})

/** An `ApiErrorResponseDto` answer; a 429 or 503 also says when to retry (`Retry-After`). */
function errorAnswer(
  status: ErrorStatus,
  message: string,
  details?: string[],
  retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS,
): SandboxResponse {
  const retry = retryAfterStatuses.includes(status)
  const headers = retry ? { 'retry-after': String(retryAfterSeconds) } : {}
  return new SandboxError(status, message, details, headers).toResponse()
}

function exampleAnswer(operation: Operation, name: string): SandboxResponse | undefined {
  const answers = operation.examples
  const answer = answers && Object.hasOwn(answers, name) ? answers[name] : undefined
  return answer ? jsonResponse(answer.status, answer.body) : undefined
}

/** Kept in each session's record. */
export class FaultRegistry {
  readonly #sessions: SessionRegistry
  /** Runs a change of a session's rules (a firing too): with a shared store, noted in its log. */
  readonly #change: ControlChange

  constructor(sessions: SessionRegistry, change?: ControlChange) {
    this.#sessions = sessions
    this.#change = change ?? (async (_record, run) => run())
  }

  /** Whether the session has any rule: the only cost of faults when there are none. */
  has(session: string): boolean {
    return this.#sessions.peek(session)?.faults !== undefined
  }

  get size(): number {
    let count = 0
    for (const record of this.#sessions.records()) count += record.faults?.rules.length ?? 0
    return count
  }

  list(session: string): ListedRule[] {
    return (this.#sessions.peek(session)?.faults?.rules ?? []).map(({ rule, remaining, fired }) =>
      Number.isFinite(remaining) ? { ...rule, fired, remaining } : { ...rule, fired },
    )
  }

  /** Throws a 400 `SandboxError` for a bad rule. */
  add(
    session: string,
    input: unknown,
    context: { seed: number; operations: readonly Operation[]; personaKeys: readonly string[] },
  ): ListedRule {
    const record = this.#sessions.openNow(session)
    const faults = record.faults ?? { rules: [], created: 0 }
    const compiled = compileRule(
      input,
      `f${faults.created + 1}`,
      context.seed,
      context.operations,
      context.personaKeys,
    )
    const index = faults.rules.findIndex((existing) => existing.rule.id === compiled.rule.id)
    if (index === -1 && faults.rules.length >= MAX_FAULT_RULES) {
      throw badRequest('Invalid fault rule', [
        `a session holds at most ${MAX_FAULT_RULES} fault rules: remove one (DELETE /__sandbox/faults/{id}), or post a rule with the id of one to replace it`,
      ])
    }
    if (index === -1) faults.rules.push(compiled)
    else faults.rules[index] = compiled
    faults.created += 1
    record.faults = faults
    return this.list(session).find((rule) => rule.id === compiled.rule.id)!
  }

  remove(session: string, id: string): boolean {
    const record = this.#sessions.peek(session)
    const faults = record?.faults
    const index = faults?.rules.findIndex((compiled) => compiled.rule.id === id) ?? -1
    if (!record || !faults || index === -1) return false
    faults.rules.splice(index, 1)
    if (faults.rules.length === 0) record.faults = undefined
    return true
  }

  clear(session: string): void {
    const record = this.#sessions.peek(session)
    if (record) record.faults = undefined
  }

  /**
   * The decision for a request to an operation, after waiting its delay: its `Prefer` header's
   * (a 400 when bad), else the first rule that matches and fires, counted down; the caller's
   * persona asked only if a rule names one. Run only when there is a `Prefer` header or a rule.
   */
  async decide(context: RequestContext, personaOf: PersonaOf): Promise<FaultDecision | undefined> {
    const prefer = context.headers.prefer
    const { record } = context
    const decision =
      (prefer === undefined ? undefined : readPrefer(prefer, context.operation!)) ??
      (record?.faults && (await this.#change(record, () => this.#fromRules(context, personaOf))))
    if (decision && decision.delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, decision.delayMs))
    }
    return decision
  }

  async #fromRules(context: RequestContext, personaOf: PersonaOf) {
    const { path, operation, record } = context
    const faults = record?.faults
    if (!faults || !operation) return undefined
    let parts: string[] | undefined
    let callerPersona: string | undefined
    for (const compiled of faults.rules) {
      const { rule } = compiled
      if (compiled.remaining <= 0 || !compiled.operations.has(operation)) continue
      parts ??= pathParts(path)
      if (!segmentsMatch(compiled.segments, parts)) continue
      if (rule.persona !== undefined) {
        callerPersona ??= personaOf((await context.callerIn(record.store)).user) ?? ''
        if (callerPersona !== rule.persona) continue
      }
      if (rule.probability !== undefined && !(compiled.random() < rule.probability)) continue
      compiled.remaining -= 1
      compiled.fired += 1
      return decisionOf(compiled, operation)
    }
    return undefined
  }
}

/**
 * The fault stage, on an operation's route: a `Prefer` header, then the session's rules. A rule's
 * or a gateway's answer is given here, after its delay; `Prefer`'s outcome once the checks pass.
 * Only a request with `Prefer` or of a session with rules waits for it.
 */
export function faultStage(faults: FaultRegistry, personaOf: PersonaOf): Stage {
  const decide = async (context: RequestContext, next: () => Promise<SandboxResponse>) => {
    const decision = await faults.decide(context, personaOf)
    context.fault = decision?.mark
    if (decision?.answer) return markFault(decision.answer, decision.mark)
    context.instead = decision?.outcome
    // Unmarked until it answers: a refusal of the checks is not `Prefer`'s (its delay is).
    if (context.instead && !decision?.delayMs) context.fault = undefined
    return next()
  }
  return (context, next) =>
    context.operation && (context.headers.prefer !== undefined || faults.has(context.session))
      ? decide(context, next)
      : next()
}

function decisionOf(compiled: CompiledRule, operation: Operation): FaultDecision {
  const { rule } = compiled
  const jitter = rule.jitterMs ? Math.floor(compiled.random() * (rule.jitterMs + 1)) : 0
  const decision: FaultDecision = { mark: rule.id, delayMs: (rule.delayMs ?? 0) + jitter }
  if (rule.networkError) decision.answer = NETWORK_ERROR
  else if (rule.example !== undefined) decision.answer = exampleAnswer(operation, rule.example)!
  else if (rule.status !== undefined) {
    const status = rule.status as ErrorStatus
    decision.answer = errorAnswer(
      status,
      rule.message ?? `Fault rule ${rule.id} answered ${status}`,
      rule.details,
      rule.retryAfterSeconds,
    )
  }
  return decision
}

/** Comma- or semicolon-separated; the first of a name wins. */
function parsePrefer(header: string): Map<string, string> {
  const preferences = new Map<string, string>()
  for (const part of header.split(/[,;]/)) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    const name = part.slice(0, eq).trim().toLowerCase()
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
    if (!preferences.has(name)) preferences.set(name, value)
  }
  return preferences
}

/**
 * What `Prefer: code=`, `example=` and `delay=` ask of `operation` (other preferences are
 * ignored, RFC 7240). A code must be one the merged document lists on the operation (one it
 * does not list takes its success and every fault status). A gateway's code answers at once, an
 * example or another code after the checks, as does the 400 listing the valid values.
 */
function readPrefer(header: string, operation: Operation): FaultDecision | undefined {
  const preferences = parsePrefer(header)
  const code = preferences.get('code')
  const example = preferences.get('example')
  const delay = preferences.get('delay')
  if (code === undefined && example === undefined && delay === undefined) return undefined

  const details: string[] = []
  const codes = [...(operation.documentedStatuses ?? [operation.successStatus, ...faultStatuses])]
  const names = exampleNames(operation)
  const status = code === undefined ? undefined : Number(code)
  if (status !== undefined && (!/^\d{3}$/.test(code!) || !codes.includes(status))) {
    details.push(`Prefer code must be one of: ${codes.join(', ')}`)
  }
  if (example !== undefined && !names.includes(example)) {
    details.push(`Prefer example must be one of: ${names.join(', ') || 'none'}`)
  }
  const delayMs = delay === undefined ? 0 : Number(delay)
  if (!/^\d+$/.test(delay ?? '0') || delayMs > MAX_DELAY_MS) {
    details.push(`Prefer delay must be an integer from 0 to ${MAX_DELAY_MS} (milliseconds)`)
  }
  const answer = example === undefined ? undefined : exampleAnswer(operation, example)
  if (details.length === 0 && answer && status !== undefined && answer.status !== status) {
    details.push(`Prefer example ${example} answers ${answer.status}, not ${status}`)
  }
  const decision: FaultDecision = { mark: 'prefer', delayMs: details.length > 0 ? 0 : delayMs }
  if (details.length > 0) {
    decision.outcome = () => {
      throw badRequest('Invalid Prefer header', details)
    }
  } else if (answer) decision.outcome = () => answer
  else if (status !== undefined) {
    const recorded = names.map((name) => exampleAnswer(operation, name)!)
    const chosen =
      recorded.find((candidate) => candidate.status === status) ??
      (status === operation.successStatus
        ? undefined
        : errorAnswer(status as ErrorStatus, `Answered ${status} as the Prefer header asked`))
    // The success status with no recording: the operation runs and answers it for real.
    if (chosen && GATEWAY_STATUSES.has(status)) decision.answer = chosen
    else if (chosen) decision.outcome = () => chosen
  }
  return decision
}
