/**
 * @module
 * Sign-ins, learned from their answers: a refresh token or an identity-provider code names
 * its user only in what the backend answered (the access token's subject, the cookie set),
 * which no precondition states, so `auth.ts` keeps them as code and they are read here.
 */
import { Cookie } from 'tough-cookie'
import { REFRESH_COOKIE, refreshTokenOwner, sentRefreshToken } from '../../mocks/core/caller.ts'
import { parseCookies } from '../../mocks/core/http.ts'
import type { Store } from '../../mocks/model/store.ts'
import { isRedacted, jwtSubject } from '../replay/bearer-subject.ts'
import { parseJson } from '../replay/replay.ts'
import type { LearnExchange } from './exchanges.ts'
import { type Facts, NotCovered } from './facts.ts'

export const REDACTED_REFRESH =
  'the refresh token was redacted (record with --no-redact to learn sign-ins)'

/** Refuses an exchange the sandbox answers with another status than the recording. */
export function expectStatus(exchange: LearnExchange, status: number, why: string) {
  if (exchange.status !== status) {
    throw new NotCovered(`${why}: the sandbox answers ${status}, the recording ${exchange.status}`)
  }
}

/** Who signed in with which refresh token or identity-provider code, as learned so far. */
export class SignIns {
  private readonly byToken = new Map<string, string>()
  private readonly byCode = new Map<string, string>()
  private readonly facts: Facts
  private readonly base: Store

  constructor(facts: Facts, base: Store) {
    this.facts = facts
    this.base = base
  }

  refresh(exchange: LearnExchange, body: Record<string, unknown>) {
    const token = sentRefreshToken(
      body.refreshToken as string | undefined,
      parseCookies(exchange.headers.cookie),
    )
    const { status } = exchange
    if (token === undefined) return expectStatus(exchange, 401, 'no refresh token was sent')
    if (isRedacted(token)) throw new NotCovered(REDACTED_REFRESH)
    if (token.split('.').length !== 2) {
      return expectStatus(exchange, 400, 'the refresh token is malformed')
    }
    const known = refreshTokenOwner(this.base, token)
    const owner = this.byToken.get(token) ?? (known.ok ? known.user.publicId : undefined)
    if (status === 401) {
      if (owner) throw new NotCovered(`the refresh token is ${owner}'s, which the sandbox accepts`)
      return
    }
    if (status !== 200) {
      throw new NotCovered(`status ${status}: the sandbox answers 200 or 401 here`)
    }
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

  idp(exchange: LearnExchange, body: Record<string, unknown>) {
    const code = String(body.code)
    const owner =
      this.byCode.get(code) ??
      this.base.users.find(
        (user) =>
          user.idpCode === code &&
          user.refreshToken !== null &&
          user.refreshTokenRevokedAt === null,
      )?.publicId
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
