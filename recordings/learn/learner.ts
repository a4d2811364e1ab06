/**
 * @module
 * Goes through recorded exchanges in order: each request checked as the pipeline checks
 * its input, its caller as the guards would see them, then what its answer says about the
 * state read from the operation's declared rules (`derive.ts`). An exchange the learned
 * scenario cannot reproduce is named with the reason, and its facts undone.
 */
import { SandboxError } from '../../mocks/core/errors.ts'
import { type CheckedInput, checkInput } from '../../mocks/core/request-input.ts'
import type { Store } from '../../mocks/model/store.ts'
import { bearerSubject, isRedacted, jwtClaims } from '../replay/bearer-subject.ts'
import { parseJson } from '../replay/replay.ts'
import { learnAnswer } from './derive.ts'
import { type LearnExchange, labelOf } from './exchanges.ts'
import { Facts, NotCovered } from './facts.ts'
import { expectStatus, REDACTED_REFRESH, SignIns } from './sign-ins.ts'

/** An exchange the learned scenario does not reproduce. */
export interface NotCoveredExchange {
  /** Position in `log.entries`, from 0. */
  index: number
  label: string
  reason: string
}

/** The pipeline's limits a recorded request is checked against: the server's defaults. */
const INPUT = { strictContract: false, bodyLimitBytes: 102_400 }

/** Learns from exchanges given in order: the facts they show, and those it cannot reproduce. */
export class Learner {
  readonly facts = new Facts()
  readonly notCovered: NotCoveredExchange[] = []
  readonly #base: Store
  readonly #signIns: SignIns
  /** The subject of each Authorization header: recordings repeat them. */
  readonly #subjects = new Map<string, string | undefined>()

  constructor(base: Store) {
    this.#base = base
    this.#signIns = new SignIns(this.facts, base)
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
    let input: CheckedInput
    try {
      input = checkInput(
        operation,
        { params, headers, body, query: new URLSearchParams(exchange.search) },
        INPUT,
      )
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error
      // A redacted refresh token fails the token's pattern: say why it is not learned.
      const sent = (parseJson(body) as { refreshToken?: unknown } | null)?.refreshToken
      if (operation.id === 'refreshToken' && typeof sent === 'string' && isRedacted(sent)) {
        throw new NotCovered(REDACTED_REFRESH)
      }
      const why = `the request fails the sandbox's checks (${error.message})`
      return expectStatus(exchange, error.status, why)
    }
    if (operation.id === 'refreshToken') return this.#signIns.refresh(exchange, input.body)
    if (operation.id === 'completeIdpSignIn') return this.#signIns.idp(exchange, input.body)
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
    })
  }

  /** The caller of an operation that needs one, or `undefined` for the 401 or 403 it got. */
  #callerOf(exchange: LearnExchange): string | undefined {
    const { facts } = this
    const authorization = exchange.headers.authorization
    if (authorization === undefined) {
      return void expectStatus(exchange, 401, 'no Authorization header')
    }
    if (!this.#subjects.has(authorization)) {
      this.#subjects.set(authorization, bearerSubject(authorization))
    }
    const subject = this.#subjects.get(authorization)
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
    const roles = isRedacted(authorization)
      ? undefined
      : jwtClaims(authorization.replace(/^Bearer\s+/i, ''))?.roles
    if (Array.isArray(roles) && !roles.includes('admin')) {
      throw new NotCovered(`the token of ${subject} has no admin role, yet the backend let it pass`)
    }
    return subject
  }
}
