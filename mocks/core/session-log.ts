/**
 * @module
 * What a durable store of sessions (`--state-dir`) offers the core: a step it awaits, not an
 * observer. A write is applied once logged, a failure refuses it (503) with nothing changed.
 */
import type { SandboxRequest } from './http.ts'

/** A write as the log keeps it: the request that made it and the instant it ran at. */
export interface LoggedWrite {
  time: string
  request: SandboxRequest
}

/** A reset as the log keeps it: what the session was put back to. */
export interface LoggedReset {
  reset: { scenario: string; seed: number; snapshot?: string }
}

export type LoggedChange = LoggedWrite | LoggedReset

export interface SessionLog {
  /**
   * The session's changes, oldest first, or `undefined` when it has no log. Throws a
   * `SandboxError` (503) when the log cannot be read as it is: the session answers that.
   */
  load(session: string): Promise<LoggedChange[] | undefined>
  /** Appends a write before it is applied; throws a `SandboxError` (503) to refuse it. */
  write(session: string, write: LoggedWrite): void | Promise<void>
  /** The session was put back to a start: its log becomes that one reset. May refuse too. */
  reset(session: string, reset: LoggedReset['reset']): void | Promise<void>
  /** The session was dropped: its log goes. */
  drop(session: string): void
  /** The session left memory (evicted past the cap): its log stays, marked as used now. */
  release?(session: string): void
  /** Something the log could not restore as it was (a snapshot deleted since), one line. */
  warn?(message: string): void
}
