/**
 * @module
 * The lifecycle events (`sandbox.events`, a rettime emitter as in msw) the journal, live stream,
 * `onOperation` and a state directory listen to; `operation:applied` is emitted inside the
 * session's queue, so a write-ahead log sees the order writes ran in.
 */
import { Emitter, TypedEvent } from 'rettime'
import type { ChangeSummary } from './change-summary.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'

/** One answered request to an operation, as `operation:applied` and `onOperation` see it. */
export interface OperationEvent {
  session: string
  request: SandboxRequest
  operationId: string
  status: number
  /** `null` for operations without `dryRun`. */
  dryRun: boolean | null
  sessionCreated: boolean
  /** The instant the operation ran at: its clock for tokens and timestamps. */
  time: Date
}

export interface ResetResult {
  session: string
  scenario: string
  seed: number
  /** The saved snapshot the session was reset to, if any. */
  snapshot?: string
}

/** What the journal keeps of one request. */
export interface JournalEntry {
  method: string
  path: string
  query: Record<string, string>
  status: number
  /** `true`/`false` for operations that carry `dryRun`, `null` for the others. */
  dryRun: boolean | null
  session: string
  /** ISO time the request arrived. */
  time: string
  durationMs: number
  /** The operationId, or `null` for an unknown route. */
  operationId: string | null
  /** The signed-in caller: a persona key, or the user's public id. */
  persona?: string
  /** Why the answer is not the operation's own: a fault rule's id, or `prefer`. */
  fault?: string
  /** `true` when that fault answered what a gateway would (429, 502, 503, 504). */
  gateway?: true
  /**
   * `true` on the request that created its session from the scenario: the session's
   * first use, or its first use again after it was evicted or dropped. Absent otherwise.
   */
  sessionCreated?: true
  /** What the request's writes changed in the session (records by collection and key). */
  changes?: ChangeSummary
  /** `x-sandbox-client`: sent by the sandbox's own tools, not the app (the MCP sign-ins). */
  client?: string
  /** What went wrong in an operation of your own: its answer's mismatch, or what it threw. */
  problem?: string
  /** A refusal's (status 400 and up) `message`, at most 200 characters. */
  message?: string
}

/** The request and the answer of a journal entry, kept as given (not copied). */
export interface JournalExchange {
  request: SandboxRequest
  response: SandboxResponse
}

export interface JournalExport extends JournalExchange {
  entry: JournalEntry
}

export interface RequestEnd {
  entry: JournalEntry
  exchange: JournalExchange
}

export type SandboxEventMap = {
  'request:end': TypedEvent<RequestEnd>
  'operation:applied': TypedEvent<OperationEvent>
  'session:reset': TypedEvent<ResetResult>
  'session:dropped': TypedEvent<{ session: string }>
}

export type SandboxEvents = Emitter<SandboxEventMap>

export function createSandboxEvents(): SandboxEvents {
  return new Emitter<SandboxEventMap>()
}

/** Whether anything listens to `type` (or to every event). */
export function listens(events: SandboxEvents, type: keyof SandboxEventMap & string): boolean {
  return events.listenerCount(type) > 0 || events.listenerCount('*') > 0
}

/** Emits `type` with `data` when anything listens (no event object made otherwise). */
export function announce<Type extends keyof SandboxEventMap & string>(
  events: SandboxEvents,
  type: Type,
  data: SandboxEventMap[Type]['data'],
): void {
  if (!listens(events, type)) return
  events.emit(new TypedEvent<unknown>(type, { data }) as never)
}
