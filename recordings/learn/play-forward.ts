/**
 * @module
 * Brings a learned start to where the recording stopped: sends the covered exchanges'
 * requests, in order, to the session that holds the learned records, each caller signed
 * in afresh. An answer whose status is not the recorded one is named: the start did not
 * reproduce it after all, and the state from there on may differ from the backend's.
 */

import type { Sandbox } from '../../mocks/core/sandbox.ts'
import { SESSION_HEADER } from '../../mocks/core/session-id.ts'
import { issueAccessToken } from '../../mocks/core/tokens.ts'
import { bearerSubject, isRedacted } from '../replay/bearer-subject.ts'
import type { LearnExchange } from './exchanges.ts'

const DROPPED = new Set(['authorization', 'cookie', 'host', 'content-length', 'connection'])

/**
 * Sends `exchanges` to `session`, each at the time it was recorded (the session's clock set
 * to it; `start` for an exchange without a date, or the time of the one before it), so
 * what the writes stamp is when they happened. Returns those answered with another status,
 * and why.
 */
export async function playForward(
  exchanges: readonly LearnExchange[],
  sandbox: Sandbox,
  session: string,
  start: Date,
): Promise<Array<{ exchange: LearnExchange; reason: string }>> {
  const store = await sandbox.store(session)
  const settings = { secret: sandbox.settings.secret, ttlSeconds: sandbox.settings.tokenTtlSeconds }
  // Each caller's token, issued at the time of the exchange that first needed it, and again
  // once half its lifetime has gone by on the recording's clock.
  const tokens = new Map<string, { token: string; issuedAt: number }>()
  const differ: Array<{ exchange: LearnExchange; reason: string }> = []
  let now = start
  for (const exchange of exchanges) {
    now = exchange.startedAt ?? now
    sandbox.clocks.set(session, now)
    const headers: Record<string, string> = { [SESSION_HEADER]: session }
    for (const [name, value] of Object.entries(exchange.headers)) {
      if (value !== undefined && !DROPPED.has(name)) headers[name] = value
    }
    const cookie = exchange.headers.cookie
    if (cookie !== undefined && !isRedacted(cookie)) headers.cookie = cookie
    const authorization = exchange.headers.authorization
    const subject = authorization === undefined ? undefined : bearerSubject(authorization)
    if (subject !== undefined) {
      let issued = tokens.get(subject)
      const age = issued === undefined ? 0 : now.getTime() - issued.issuedAt
      if (!issued || age < 0 || age > (settings.ttlSeconds * 1000) / 2) {
        const roles = [...(store.users.get(subject)?.roles ?? [])]
        const token = await issueAccessToken(settings, { sub: subject, roles }, now)
        issued = { token, issuedAt: now.getTime() }
        tokens.set(subject, issued)
      }
      headers.authorization = `Bearer ${issued.token}`
    } else if (authorization !== undefined) headers.authorization = authorization
    const answer = await sandbox.handle({
      method: exchange.operation.method,
      url: exchange.path + exchange.search,
      headers,
      ...(exchange.body === '' ? {} : { body: exchange.body }),
    })
    if (answer.status !== exchange.status) {
      differ.push({
        exchange,
        reason: `answered ${answer.status} when played forward from the learned start`,
      })
    }
  }
  return differ
}
