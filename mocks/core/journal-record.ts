/**
 * @module
 * The journal entry of one request, built in one place whichever way it was answered, with
 * credentials in the query redacted; and the `x-sandbox-session-created` header.
 */
import { announce, type SandboxEvents } from './events.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import type { JournalEntry } from './journal.ts'

/**
 * Said by the answer that made its session from the scenario again (first use, after eviction
 * or a drop), so a QA run that lost its state can tell.
 */
export const SESSION_CREATED_HEADER = 'x-sandbox-session-created'

export function markSessionCreated(response: SandboxResponse, created: boolean): SandboxResponse {
  if (!created) return response
  return { ...response, headers: { ...response.headers, [SESSION_CREATED_HEADER]: 'true' } }
}

export const REDACTED = '[redacted]'

/** Query parameters that carry credentials: tokens, secrets, passwords, keys, codes. */
const SECRET_NAME =
  /token|secret|passw|pwd|api[-_]?key|signature|jwt|credential|auth|session[-_]?id|^(code|key|sig|assertion)$/i

/**
 * The query as a plain object, credential-like values replaced: the journal is read by anyone
 * who can reach `/__sandbox/requests`.
 */
export function redactQuery(query: URLSearchParams): Record<string, string> {
  // Defined, not assigned, so that `?__proto__=` is a parameter like any other; the last wins.
  return Object.fromEntries(
    [...query].map(([name, value]) => [name, SECRET_NAME.test(name) ? REDACTED : value]),
  )
}

/** What a gateway in front of the backend answers: rate limited, bad upstream, down, too slow. */
const GATEWAY_STATUSES = new Set([429, 502, 503, 504])

/** What is known of a request while it is handled; filled in as it goes. */
export interface RequestTrace {
  request: SandboxRequest
  /** The method as sent (`HEAD` stays `HEAD`). */
  method: string
  path: string
  query: URLSearchParams
  /** `performance.now()` when the request arrived. */
  started: number
  session: string
  /** ISO time on the session's clock. */
  time: string
  operationId: string | null
  fault: string | undefined
}

export interface RecordDetails {
  dryRun?: boolean | null
  persona?: string | null | undefined
  sessionCreated?: boolean
}

/** Announces an answered request (`request:end`) with its journal entry. */
export function recordRequest(
  events: SandboxEvents,
  trace: RequestTrace,
  response: SandboxResponse,
  details: RecordDetails = {},
): void {
  const entry: JournalEntry = {
    method: trace.method,
    path: trace.path,
    query: redactQuery(trace.query),
    status: response.status,
    dryRun: details.dryRun ?? null,
    session: trace.session,
    time: trace.time,
    durationMs: performance.now() - trace.started,
    operationId: trace.operationId,
  }
  if (details.persona) entry.persona = details.persona
  if (trace.fault !== undefined) {
    entry.fault = trace.fault
    if (GATEWAY_STATUSES.has(response.status)) entry.gateway = true
  }
  if (details.sessionCreated) entry.sessionCreated = true
  announce(events, 'request:end', { entry, exchange: { request: trace.request, response } })
}
