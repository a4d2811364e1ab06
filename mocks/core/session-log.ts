/**
 * @module
 * What a durable store of sessions (`--state-dir`) offers the core: a step it awaits, not an
 * observer. A write is applied once logged, a failure refuses it (503) with nothing changed.
 */
import type { SandboxRequest } from './http.ts'

export interface LoggedWrite {
  time: string
  request: SandboxRequest
}

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
  /** Its log becomes that one reset. May refuse too. */
  reset(session: string, reset: LoggedReset['reset']): void | Promise<void>
  drop(session: string): void
  /** Evicted past the cap: its log stays, marked as used now. */
  release?(session: string): void
  /** What could not be restored as it was (a snapshot deleted since), one line. */
  warn?(message: string): void
}
