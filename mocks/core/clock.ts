/**
 * @module
 * The clock of each session: the sandbox's clock moved by an offset, so a test can jump or
 * advance time without waiting; it keeps running, and a reset puts it back to real time.
 */
import type { SessionRegistry } from './sessions.ts'

export interface ClockState {
  /** ISO 8601. */
  now: string
  /** From the sandbox's clock. */
  offsetSeconds: number
  /** `true` when the session runs on the sandbox's own clock. */
  real: boolean
}

export class SessionClocks {
  readonly #sessions: SessionRegistry
  readonly base: () => Date

  constructor(sessions: SessionRegistry, base: () => Date) {
    this.#sessions = sessions
    this.base = base
  }

  #offset(session: string): number | undefined {
    return this.#sessions.peek(session)?.clockOffsetMs
  }

  /** Whether the clock was moved: the fast path checks this only. */
  has(session: string): boolean {
    return this.#offset(session) !== undefined
  }

  now(session: string): Date {
    const offset = this.#offset(session)
    const now = this.base()
    return offset === undefined ? now : new Date(now.getTime() + offset)
  }

  state(session: string): ClockState {
    const offset = this.#offset(session)
    return {
      now: this.now(session).toISOString(),
      offsetSeconds: (offset ?? 0) / 1000,
      real: offset === undefined,
    }
  }

  set(session: string, now: Date): void {
    this.#sessions.openNow(session).clockOffsetMs = now.getTime() - this.base().getTime()
  }

  advance(session: string, seconds: number): void {
    const record = this.#sessions.openNow(session)
    record.clockOffsetMs = (record.clockOffsetMs ?? 0) + seconds * 1000
  }

  reset(session: string): void {
    const record = this.#sessions.peek(session)
    if (record) record.clockOffsetMs = undefined
  }
}
