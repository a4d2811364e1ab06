/**
 * @module
 * The journal entry of one request, built in one place: what the core knows of the
 * request when it is answered, whichever way it was answered.
 */
import { announce, type SandboxEvents } from './events.ts'
import { isGatewayStatus } from './fault-rules.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import type { JournalEntry } from './journal.ts'
import { redactQuery } from './redact.ts'

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
    if (isGatewayStatus(response.status)) entry.gateway = true
  }
  if (details.sessionCreated) entry.sessionCreated = true
  announce(events, 'request:end', { entry, exchange: { request: trace.request, response } })
}
