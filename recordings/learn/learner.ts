/**
 * @module
 * Goes through recorded exchanges in order: each request checked by the pipeline's input check,
 * its caller as the guards see them, then what its answer says (`derive.ts`). A sign-in (an
 * operation's `signIn`) names its user only in its answer, which no precondition states: it is
 * read here.
 */
import { Cookie } from 'tough-cookie'
import {
  type CheckedInput,
  checkInput,
  parseCookies,
  REFRESH_COOKIE,
  readBearer,
  refreshTokenOwner,
  SandboxError,
  sentRefreshToken,
} from '../../mocks/core/index.ts'
import type { User } from '../../mocks/model/schemas.ts'
import { REFRESH_TOKEN } from '../../mocks/model/shapes.ts'
import type { Store } from '../../mocks/model/store.ts'
import { bearerSubject, isRedacted, jwtClaims, jwtSubject } from '../record/redact.ts'
import { parseJson } from '../replay/recordings.ts'
import { learnAnswer } from './derive.ts'
import { type LearnExchange, labelOf } from './exchanges.ts'
import { Facts, NotCovered } from './facts.ts'

/** An exchange the learned scenario does not reproduce, by its index in `log.entries`. */
export interface NotCoveredExchange {
  index: number
  label: string
  reason: string
}

/** The pipeline's limits a recorded request is checked against: the server's defaults. */
const INPUT = { strictContract: false, bodyLimitBytes: 102_400 }

const REDACTED_REFRESH =
  'the refresh token was redacted (record with --no-redact to learn sign-ins)'

/** Refuses an exchange the sandbox answers with another status than the recording. */
function expectStatus(exchange: LearnExchange, status: number, why: string) {
  if (exchange.status !== status) {
    throw new NotCovered(`${why}: the sandbox answers ${status}, the recording ${exchange.status}`)
  }
}

/** Whether a sign-in succeeded; refuses a status other than its own or 401, a 401 for an `owner`. */
function succeeded(exchange: LearnExchange, what: string, owner: string | undefined) {
  const ok = exchange.operation.successStatus
  if (exchange.status === 401 && owner) {
    throw new NotCovered(`${what} is ${owner}'s, which the sandbox accepts`)
  }
  if (exchange.status !== 401 && exchange.status !== ok) {
    throw new NotCovered(`status ${exchange.status}: the sandbox answers ${ok} or 401 here`)
  }
  return exchange.status === ok
}

/** Learns from exchanges given in order: the facts they show, and those it cannot reproduce. */
export class Learner {
  readonly facts = new Facts()
  readonly notCovered: NotCoveredExchange[] = []
  readonly #base: Store
  /** The subject of each Authorization header: recordings repeat them. */
  readonly #subjects = new Map<string, string | undefined>()
  /** Who signed in with which refresh token or identity-provider code, as learned so far. */
  readonly #byToken = new Map<string, string>()
  readonly #byCode = new Map<string, string>()

  constructor(base: Store) {
    this.#base = base
  }

  learn(exchanges: readonly LearnExchange[]): void {
    for (const exchange of exchanges) {
      this.facts.begin(exchange.index)
      try {
        this.#learnOne(exchange)
      } catch (error) {
        if (!(error instanceof NotCovered)) throw error
        this.facts.rollback()
        const { index } = exchange
        this.notCovered.push({ index, label: labelOf(exchange), reason: error.message })
      }
    }
  }

  #learnOne(exchange: LearnExchange) {
    const { operation, params, headers, body } = exchange
    const { signIn } = operation
    const query = new URLSearchParams(exchange.search)
    let input: CheckedInput
    try {
      input = checkInput(operation, { params, headers, body, query }, INPUT)
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error
      // A redacted refresh token fails the token's pattern: say why it is not learned.
      const sent = signIn && (parseJson(body) as Record<string, unknown> | null)?.[signIn.sent]
      if (signIn?.by === 'refreshToken' && typeof sent === 'string' && isRedacted(sent)) {
        throw new NotCovered(REDACTED_REFRESH)
      }
      const why = `the request fails the sandbox's checks (${error.message})`
      return expectStatus(exchange, error.status, why)
    }
    const sent = signIn && (input.body[signIn.sent] as string | undefined)
    if (signIn?.by === 'refreshToken') return this.#refresh(exchange, sent)
    if (signIn?.by === 'idpCode') return this.#idp(exchange, String(sent))
    const caller = operation.auth === 'public' ? '' : this.#callerOf(exchange)
    if (caller === undefined) return
    learnAnswer(operation, {
      facts: this.facts,
      base: this.#base,
      status: exchange.status,
      params: input.params,
      body: input.body,
      answer: exchange.answer,
      caller,
      writes: input.dryRun !== true,
      effects: operation.rules?.effects,
    })
  }

  /** The caller of an operation that needs one, or `undefined` for the 401 or 403 it got. */
  #callerOf(exchange: LearnExchange): string | undefined {
    const { facts } = this
    const authorization = exchange.headers.authorization
    if (authorization === undefined) {
      return void expectStatus(exchange, 401, 'no Authorization header')
    }
    const subjects = this.#subjects
    if (!subjects.has(authorization)) subjects.set(authorization, bearerSubject(authorization))
    const subject = subjects.get(authorization)
    if (subject === undefined) {
      return void expectStatus(exchange, 401, 'the token names no subject (redacted without it)')
    }
    if (exchange.status === 401) {
      throw new NotCovered(
        `401 for a token of ${subject} (expired or revoked at the backend): the sandbox accepts a fresh one`,
      )
    }
    const caller = facts.fact('users', subject)
    facts.exists(caller, true)
    if (exchange.operation.auth !== 'admin') return subject
    if (exchange.status === 403) return void facts.pin(caller, 'admin', false)
    facts.pin(caller, 'admin', true)
    // A redacted token is no JWT: it names no roles.
    const bearer = readBearer(authorization)
    const roles = bearer.ok ? jwtClaims(bearer.token)?.roles : undefined
    if (Array.isArray(roles) && !roles.includes('admin')) {
      throw new NotCovered(`the token of ${subject} has no admin role, yet the backend let it pass`)
    }
    return subject
  }

  #refresh(exchange: LearnExchange, sent: string | undefined) {
    const cookies = parseCookies(exchange.headers.cookie)
    const token = sentRefreshToken(sent, cookies)
    if (token === undefined) return expectStatus(exchange, 401, 'no refresh token was sent')
    if (isRedacted(token)) throw new NotCovered(REDACTED_REFRESH)
    if (!REFRESH_TOKEN.test(token)) {
      return expectStatus(exchange, 400, 'the refresh token is malformed')
    }
    const known = refreshTokenOwner(this.#base, token)
    const owner = this.#byToken.get(token) ?? (known.ok ? known.user.publicId : undefined)
    if (!succeeded(exchange, 'the refresh token', owner)) return
    const answered = parseJson(exchange.answer) as { accessToken?: unknown } | undefined
    const sub =
      typeof answered?.accessToken === 'string' ? jwtSubject(answered.accessToken) : undefined
    if (sub && owner && sub !== owner) {
      if (!owner.startsWith('~')) {
        throw new NotCovered(`the refresh token is ${owner}'s, but the answer's token names ${sub}`)
      }
      // The user who signed in with an identity-provider code earlier is this one.
      this.facts.merge(this.facts.fact('users', owner), this.facts.fact('users', sub))
      for (const map of [this.#byToken, this.#byCode]) {
        for (const [key, id] of map) if (id === owner) map.set(key, sub)
      }
    }
    this.#signIn(sub ?? owner ?? `~${exchange.index}`, token)
  }

  #idp(exchange: LearnExchange, code: string) {
    const signsIn = (user: User) =>
      user.idpCode === code && user.refreshToken !== null && user.refreshTokenRevokedAt === null
    const owner = this.#byCode.get(code) ?? this.#base.users.find(signsIn)?.publicId
    if (!succeeded(exchange, 'the code', owner)) return
    const cookie = exchange.setCookie
      .map((line) => Cookie.parse(line))
      .map((parsed) => (parsed?.key === REFRESH_COOKIE ? parsed.value : undefined))
      .find((value) => value !== undefined && !isRedacted(value))
    const holder = owner ?? (cookie === undefined ? undefined : this.#byToken.get(cookie))
    this.#signIn(holder ?? `~${exchange.index}`, cookie, code)
  }

  #signIn(id: string, refreshToken: string | undefined, idpCode?: string): void {
    const fact = this.facts.fact('users', id)
    this.facts.exists(fact, true)
    if (refreshToken !== undefined) {
      this.facts.pin(fact, 'refreshToken', refreshToken)
      this.#byToken.set(refreshToken, id)
    }
    if (idpCode !== undefined) {
      this.facts.pin(fact, 'idpCode', idpCode)
      this.#byCode.set(idpCode, id)
    }
  }
}
