/**
 * @module
 * Learns a scenario from recorded traffic: goes through a HAR's exchanges in order,
 * reads what each answer shows and what each write implies about the state before it
 * (`rules.ts`), and writes the result as records (`materialize.ts`) on top of the
 * scenario extended. Exchanges it cannot reproduce are named with the reason.
 */

import { Cookie } from 'tough-cookie'
import { REFERENCE_DATE } from '../../../fixtures/reference-date.ts'
import { REFRESH_COOKIE } from '../../core/caller.ts'
import { readDryRunQuery } from '../../core/dry-run.ts'
import { SandboxError } from '../../core/errors.ts'
import { parseCookies } from '../../core/http.ts'
import type { Operation } from '../../core/operation.ts'
import { readJsonBody } from '../../core/pipeline.ts'
import { decodeParams } from '../../core/router.ts'
import { parseInput } from '../../core/validation.ts'
import type { Store } from '../../model/store.ts'
import type { z } from '../../model/zod.ts'
import { operations } from '../../operations/table.ts'
import { createSandbox } from '../../sandbox.ts'
import { DEFAULT_EXTENDS, type ScenarioFile } from '../../scenarios/scenario-file.ts'
import type { ScenarioInputs } from '../../scenarios/scenario-inputs.ts'
import { bearerSubject, isRedacted, jwtClaims, jwtSubject } from '../bearer-subject.ts'
import {
  ExchangeLabels,
  type LearnExchange,
  labelOf,
  type ReadSummary,
  readHarDocument,
  readHarText,
} from './exchanges.ts'
import { Facts, NotCovered } from './facts.ts'
import { type LearnedSignIn, materialize } from './materialize.ts'
import { playForward } from './play-forward.ts'
import { parseJson, rules } from './rules.ts'

export interface ScenarioFromHarOptions {
  /** The scenario's name. Default `learned`. */
  name?: string
  /** The scenario it starts from. Default `empty` (the personas and their accounts). */
  extends?: string
  /** Seed of the scenario extended and of the factories. Default the sandbox's. */
  seed?: number
  /** Scenarios `extends` may name besides the built-in ones. */
  scenarios?: ScenarioInputs
  /** How the description names the recording. Default `a recording`. */
  source?: string
  /**
   * `start` (default): the state before the first exchange, so that sending the recorded
   * requests again gives the recorded answers. `end`: the state where the recording
   * stopped, the learned start with the covered exchanges played forward on it.
   */
  at?: 'start' | 'end'
}

/** An exchange the learned scenario does not reproduce. */
export interface NotCoveredExchange {
  /** Position in `log.entries`, from 0. */
  index: number
  label: string
  reason: string
}

export interface LearnedScenario {
  scenario: ScenarioFile
  /** How many exchanges with the API the scenario reproduces. */
  covered: number
  /** Exchanges with the API (entries that are an operation). */
  exchanges: number
  /** Every entry of the recording. */
  entries: number
  notCovered: NotCoveredExchange[]
  /** Entries that are no operation of the API (pages, scripts, `/__sandbox`). */
  others: string[]
  /** Exchange indexes behind each learned record, by `<collection>:<key>`. */
  origins: Map<string, number[]>
  /** The label of exchange `index` (`#3 POST /bookings/bkg_1/decline 201`), for comments. */
  label(index: number): string
  /** Credentials of the users the scenario adds. */
  signIns: LearnedSignIn[]
}

const BODY_LIMIT = 102_400
const SNAPSHOT = 'learned-from-har'

/**
 * `fn` remembering its answer for each key: recordings repeat query strings, ids and
 * tokens. A class, not a closure, so that every learner shares one compiled `get`.
 */
class Memo<T> {
  readonly #answers = new Map<string, T>()
  readonly #fn: (key: string) => T
  constructor(fn: (key: string) => T) {
    this.#fn = fn
  }
  get(key: string): T {
    const known = this.#answers.get(key)
    if (known !== undefined || this.#answers.has(key)) return known as T
    const answer = this.#fn(key)
    this.#answers.set(key, answer)
    return answer
  }
}

/**
 * `parseInput`'s verdict, the message only when it fails: zod's plain `safeParse` takes its
 * compiled fast path, ten times quicker than with the options that messages need.
 */
function checked(schema: z.ZodMiniType, value: unknown, subject: string) {
  const quick = schema.safeParse(value)
  return quick.success
    ? { ok: true as const, data: quick.data }
    : parseInput(schema, value, subject)
}

type InputCheck =
  | { ok: true; body: Record<string, unknown>; params: Record<string, string>; writes: boolean }
  | { ok: false; error: SandboxError }

type Verdict<T> = { ok: true; data: T } | { ok: false; error: SandboxError }

function dryRunOf(search: string): boolean | undefined | SandboxError {
  try {
    return readDryRunQuery(new URLSearchParams(search))
  } catch (error) {
    if (error instanceof SandboxError) return error
    throw error
  }
}

const REDACTED_REFRESH =
  'the refresh token was redacted (record with --no-redact to learn sign-ins)'

/** Whether a recorded refresh sends a redacted token in its body. */
function redactedRefresh(exchange: LearnExchange): boolean {
  try {
    const body: unknown = JSON.parse(exchange.body ?? '')
    const token = (body as { refreshToken?: unknown } | null)?.refreshToken
    return typeof token === 'string' && isRedacted(token)
  } catch {
    return false
  }
}

/**
 * What the sandbox answers whatever the state: the `dryRun`, body and input checks the
 * pipeline makes (it makes the input checks after authentication, which a recording of a
 * signed-in call passed). One per recording, remembering repeats.
 */
class InputChecks {
  readonly #dryRuns = new Memo(dryRunOf)
  /** Exchanges on one method and path share their params object: decoded and checked once. */
  readonly #params = new Map<object, Verdict<Record<string, string>>>()

  check(exchange: LearnExchange): InputCheck {
    const { operation } = exchange
    try {
      // No query string, the usual, needs no lookup.
      const dryRun =
        operation.dryRun && exchange.search !== '' ? this.#dryRuns.get(exchange.search) : undefined
      if (dryRun instanceof SandboxError) return { ok: false, error: dryRun }
      const body =
        operation.method === 'POST'
          ? readJsonBody(exchange.body, exchange.headers['content-type'], BODY_LIMIT)
          : {}
      const params = this.#paramsOf(operation, exchange.params)
      if (!params.ok) return params
      if (operation.body && !operation.body.safeParse(body).success) {
        const parsedBody = parseInput(operation.body, body, 'body')
        if (!parsedBody.ok) return parsedBody
      }
      return { ok: true, body, params: params.data, writes: dryRun !== true }
    } catch (error) {
      if (error instanceof SandboxError) return { ok: false, error }
      throw error
    }
  }

  #paramsOf(
    operation: Operation,
    raw: Readonly<Record<string, string>>,
  ): Verdict<Record<string, string>> {
    let verdict = this.#params.get(raw)
    if (!verdict) {
      try {
        verdict = checked(operation.params, decodeParams(raw), 'params') as Verdict<
          Record<string, string>
        >
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error
        verdict = { ok: false, error }
      }
      this.#params.set(raw, verdict)
    }
    return verdict
  }
}

/** Who signed in with which refresh token or identity-provider code, as learned so far. */
class SignIns {
  private readonly byToken = new Map<string, string>()
  private readonly byCode = new Map<string, string>()

  private readonly facts: Facts
  private readonly base: Store

  constructor(facts: Facts, base: Store) {
    this.facts = facts
    this.base = base
  }

  ownerOfToken(token: string): string | undefined {
    return (
      this.byToken.get(token) ??
      this.base.users.find(
        (user) => user.refreshToken === token && user.refreshTokenRevokedAt === null,
      )?.publicId
    )
  }

  ownerOfCode(code: string): string | undefined {
    return (
      this.byCode.get(code) ??
      this.base.users.find(
        (user) =>
          user.idpCode === code &&
          user.refreshToken !== null &&
          user.refreshTokenRevokedAt === null,
      )?.publicId
    )
  }

  refresh(exchange: LearnExchange, body: Record<string, unknown>): void {
    const token =
      typeof body.refreshToken === 'string'
        ? body.refreshToken
        : parseCookies(exchange.headers.cookie)[REFRESH_COOKIE]
    const { status } = exchange
    if (token === undefined || token === '') {
      expect(exchange, 401, 'no refresh token was sent')
      return
    }
    if (isRedacted(token)) throw new NotCovered(REDACTED_REFRESH)
    if (token.split('.').length !== 2) {
      expect(exchange, 400, 'the refresh token is malformed')
      return
    }
    const owner = this.ownerOfToken(token)
    if (status === 401) {
      if (owner) throw new NotCovered(`the refresh token is ${owner}'s, which the sandbox accepts`)
      return
    }
    if (status !== 200)
      throw new NotCovered(`status ${status}: the sandbox answers 200 or 401 here`)
    const answered = parseJson(exchange.answer) as { accessToken?: unknown } | undefined
    const sub =
      typeof answered?.accessToken === 'string' ? jwtSubject(answered.accessToken) : undefined
    if (sub && owner && sub !== owner) {
      if (!owner.startsWith('~')) {
        throw new NotCovered(`the refresh token is ${owner}'s, but the answer's token names ${sub}`)
      }
      // The user who signed in with an identity-provider code earlier is this one.
      this.facts.merge(this.facts.fact('users', owner), this.facts.fact('users', sub))
      for (const map of [this.byToken, this.byCode]) {
        for (const [key, id] of map) if (id === owner) map.set(key, sub)
      }
    }
    this.signedIn(sub ?? owner ?? `~${exchange.index}`, { refreshToken: token })
  }

  idp(exchange: LearnExchange, body: Record<string, unknown>): void {
    const code = String(body.code)
    const owner = this.ownerOfCode(code)
    if (exchange.status === 401) {
      if (owner) throw new NotCovered(`the code is ${owner}'s, which the sandbox accepts`)
      return
    }
    if (exchange.status !== 201) {
      throw new NotCovered(`status ${exchange.status}: the sandbox answers 201 or 401 here`)
    }
    const cookie = exchange.setCookie
      .map((line) => Cookie.parse(line))
      .map((parsed) => (parsed?.key === REFRESH_COOKIE ? parsed.value : undefined))
      .find((value) => value !== undefined && !isRedacted(value))
    const holder = owner ?? (cookie === undefined ? undefined : this.byToken.get(cookie))
    this.signedIn(holder ?? `~${exchange.index}`, {
      idpCode: code,
      ...(cookie === undefined ? {} : { refreshToken: cookie }),
    })
  }

  private signedIn(id: string, credentials: { refreshToken?: string; idpCode?: string }): void {
    const fact = this.facts.fact('users', id)
    this.facts.exists(fact, true)
    if (credentials.refreshToken !== undefined) {
      this.facts.pin(fact, 'refreshToken', credentials.refreshToken)
      this.byToken.set(credentials.refreshToken, id)
    }
    if (credentials.idpCode !== undefined) {
      this.facts.pin(fact, 'idpCode', credentials.idpCode)
      this.byCode.set(credentials.idpCode, id)
    }
  }
}

function expect(exchange: LearnExchange, status: number, why: string): void {
  if (exchange.status !== status) {
    throw new NotCovered(`${why}: the sandbox answers ${status}, the recording ${exchange.status}`)
  }
}

/** The caller of an operation that needs one, or the 401 the sandbox answers without one. */
function callerOf(
  exchange: LearnExchange,
  facts: Facts,
  subjects: Memo<string | undefined>,
): string | undefined {
  const authorization = exchange.headers.authorization
  if (authorization === undefined) {
    expect(exchange, 401, 'no Authorization header')
    return undefined
  }
  const subject = subjects.get(authorization)
  if (subject === undefined) {
    expect(exchange, 401, 'the token names no subject (redacted without it)')
    return undefined
  }
  if (exchange.status === 401) {
    throw new NotCovered(
      `401 for a token of ${subject} (expired or revoked at the backend): the sandbox accepts a fresh one`,
    )
  }
  const caller = facts.fact('users', subject)
  facts.exists(caller, true)
  if (exchange.operation.auth === 'admin') {
    const roles = isRedacted(authorization)
      ? undefined
      : jwtClaims(authorization.replace(/^Bearer\s+/i, ''))?.roles
    if (exchange.status === 403) {
      facts.pin(caller, 'admin', false)
      return undefined
    }
    facts.pin(caller, 'admin', true)
    if (Array.isArray(roles) && !roles.includes('admin')) {
      throw new NotCovered(`the token of ${subject} has no admin role, yet the backend let it pass`)
    }
  }
  return subject
}

/**
 * Learns from exchanges given in order, a part at a time: the facts they show, and those
 * the scenario cannot reproduce. Keeps the exchanges' labels, and the exchanges themselves
 * only when asked (to play them forward), so a large recording's parts go once learned.
 */
class Learner {
  readonly facts = new Facts()
  readonly notCovered: NotCoveredExchange[] = []
  readonly labels = new ExchangeLabels()
  /** Every exchange, when kept. */
  readonly kept: LearnExchange[] | undefined
  readonly #base: Store
  readonly #signIns: SignIns
  readonly #inputs = new InputChecks()
  readonly #subjects = new Memo(bearerSubject)

  constructor(base: Store, keep: boolean) {
    this.#base = base
    this.#signIns = new SignIns(this.facts, base)
    this.kept = keep ? [] : undefined
  }

  learn(exchanges: readonly LearnExchange[]): void {
    for (const exchange of exchanges) {
      this.labels.add(exchange)
      this.kept?.push(exchange)
      this.#learnOne(exchange)
    }
  }

  #learnOne(exchange: LearnExchange): void {
    const { facts } = this
    facts.begin(exchange.index)
    try {
      const input = this.#inputs.check(exchange)
      // A redacted refresh token fails the token's pattern: say why it is not learned.
      if (!input.ok && exchange.operation.id === 'refreshToken' && redactedRefresh(exchange)) {
        throw new NotCovered(REDACTED_REFRESH)
      }
      if (!input.ok) {
        expect(
          exchange,
          input.error.status,
          `the request fails the sandbox's checks (${input.error.message})`,
        )
        return
      }
      const id = exchange.operation.id
      if (id === 'refreshToken') this.#signIns.refresh(exchange, input.body)
      else if (id === 'completeIdpSignIn') this.#signIns.idp(exchange, input.body)
      else {
        const rule = rules[id]
        if (!rule) throw new NotCovered(`${id} is not learned yet`)
        const caller =
          exchange.operation.auth === 'public' ? '' : callerOf(exchange, facts, this.#subjects)
        if (caller === undefined) return
        rule({
          facts,
          base: this.#base,
          status: exchange.status,
          params: input.params,
          body: input.body,
          answer: exchange.answer,
          caller,
          writes: input.writes,
        })
      }
    } catch (error) {
      if (!(error instanceof NotCovered)) throw error
      facts.rollback()
      this.notCovered.push({
        index: exchange.index,
        label: labelOf(exchange),
        reason: error.message,
      })
    }
  }
}

/**
 * Reads a recording, giving its exchanges in order, a part at a time, to the taker
 * `begin()` returns; `begin()` again means starting over.
 */
type ExchangeSource = (begin: () => (exchanges: LearnExchange[]) => void) => ReadSummary

/**
 * Learns the scenario a HAR document (`platform-sandbox record`'s, or a browser's export)
 * shows, with what it covered and what it could not. Throws a `RecordingsFormatError`
 * for a document that is not a HAR, and a `ScenarioError` for an unknown `extends`.
 */
export function learnScenario(
  document: unknown,
  options: ScenarioFromHarOptions = {},
): Promise<LearnedScenario> {
  return learnFrom((begin) => readHarDocument(document, operations, begin), options)
}

/**
 * {@link learnScenario} from the text of a HAR file (what the command and
 * `scenarioFromHar(path)` read), parsed with `JSON.parse`: a `SyntaxError` for text that
 * is not JSON.
 */
export function learnScenarioFromText(
  text: string,
  options: ScenarioFromHarOptions = {},
): Promise<LearnedScenario> {
  return learnFrom((begin) => readHarText(text, operations, begin), options)
}

async function learnFrom(
  source: ExchangeSource,
  options: ScenarioFromHarOptions,
): Promise<LearnedScenario> {
  const name = options.name ?? 'learned'
  // The recording's start, once read: nothing reads the sandbox's clock before that.
  let now = REFERENCE_DATE
  const sandbox = createSandbox({
    scenario: options.extends ?? DEFAULT_EXTENDS,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.scenarios === undefined ? {} : { scenarios: options.scenarios }),
    now: () => now,
  })
  const session = 'learn'
  const base = await sandbox.store(session)
  let learner!: Learner
  const { others, total, startedAt } = source(() => {
    // A fresh learner for each start: what an attempt that did not hold learned is dropped.
    const fresh = new Learner(base, options.at === 'end')
    learner = fresh
    return (part) => fresh.learn(part)
  })
  const { facts, notCovered, labels } = learner
  const count = labels.size
  now = startedAt ?? REFERENCE_DATE
  const learned = await materialize(facts, sandbox, { session, now })
  if (learner.kept) {
    const skipped = new Set(notCovered.map(({ index }) => index))
    const covered = learner.kept.filter((exchange) => !skipped.has(exchange.index))
    for (const { exchange, reason } of await playForward(covered, sandbox, session, now)) {
      notCovered.push({ index: exchange.index, label: labelOf(exchange), reason })
    }
    notCovered.sort((a, b) => a.index - b.index)
  }
  // Exported as a saved snapshot is: what differs from the scenario extended.
  await sandbox.snapshots.save(SNAPSHOT, { session })
  const scenario: ScenarioFile = {
    ...(await sandbox.snapshots.export(SNAPSHOT)),
    name,
    description: `Learned from ${options.source ?? 'a recording'}, ${options.at === 'end' ? 'where it stopped' : 'before its first exchange'}: ${count - notCovered.length} of ${count} exchanges with the API reproduced`,
  }
  return {
    scenario,
    covered: count - notCovered.length,
    exchanges: count,
    entries: total,
    notCovered,
    others,
    origins: learned.origins,
    label: (index) => labels.get(index) ?? `#${index + 1}`,
    signIns: learned.signIns,
  }
}

/**
 * The scenario a HAR document shows: the records that make every exchange it covers come
 * out the same when the requests are sent again, in order, to a sandbox started on it.
 *
 * @example
 * const learned = await scenarioFromHar(har, { name: 'staging-session' })
 * setupSandboxServer({ scenarios: [learned], scenario: 'staging-session' })
 */
export async function scenarioFromHar(
  har: unknown,
  options: ScenarioFromHarOptions = {},
): Promise<ScenarioFile> {
  return (await learnScenario(har, options)).scenario
}
