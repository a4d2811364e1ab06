/**
 * @module
 * Sessions, one record each (store, fault rules, clock offset, journal), made on first use and
 * evicted whole past the cap, least recently used first unless a request is in flight in it.
 */
import { invariant } from 'outvariant'
import type { Store } from '../model/store.ts'
import { badRequest, type SandboxError } from './errors.ts'
import type { JournalEntry } from './events.ts'
import type { CompiledRule } from './fault-rules.ts'
import { DEFAULT_SESSION } from './session-id.ts'

export { DEFAULT_SESSION, isValidSessionId } from './session-id.ts'

/** A journal entry with the place it has among every session's entries. */
export interface JournalSlot {
  sequence: number
  entry: JournalEntry
}

export interface SessionRecord {
  readonly id: string
  store: Store
  /** Serialises the operations of one session, so concurrent writes never interleave. */
  queue: Promise<unknown>
  /** In the order they were added; `created` counts them for the next id (`f3`). */
  faults: { rules: CompiledRule[]; created: number } | undefined
  /** How far the session's clock is from the sandbox's; unset when real. */
  clockOffsetMs: number | undefined
  /** Oldest first; `undefined` until its first entry. */
  journal: JournalSlot[] | undefined
  /** Requests being answered in this session: it is not evicted under them. */
  active: number
  /** Set when the session's durable state cannot be read: every use of it answers this. */
  unavailable: SandboxError | undefined
  /** Started from its scenario, and no answer has said so yet (`x-sandbox-session-created`). */
  fresh: boolean
}

interface SessionRegistryOptions {
  maxSessions: number
  /** Makes the record of a session not in memory; `created` when it starts from its scenario. */
  open: (id: string) => Promise<{
    store: Store
    created: boolean
    unavailable?: SandboxError | undefined
    control?: Pick<SessionRecord, 'faults' | 'clockOffsetMs'> | undefined
  }>
  /** Makes it without waiting, when nothing durable has to be read (no state directory). */
  openNow?: ((id: string) => Store) | undefined
  /** Called with each record that leaves memory (evicted, dropped). */
  onRelease?: ((record: SessionRecord) => void) | undefined
}

export class SessionRegistry {
  readonly #sessions = new Map<string, SessionRecord>()
  readonly #opening = new Map<string, Promise<SessionRecord>>()
  readonly #options: SessionRegistryOptions

  constructor(options: SessionRegistryOptions) {
    this.#options = options
  }

  get size(): number {
    return this.#sessions.size
  }

  ids(): string[] {
    return [...this.#sessions.keys()]
  }

  /** Least recently used first. */
  records(): IterableIterator<SessionRecord> {
    return this.#sessions.values()
  }

  /** Without marking it used. */
  peek(id: string): SessionRecord | undefined {
    return this.#sessions.get(id)
  }

  use(id: string): SessionRecord | undefined {
    const record = this.#sessions.get(id)
    if (record && this.#sessions.size > 1) {
      this.#sessions.delete(id)
      this.#sessions.set(id, record)
    }
    return record
  }

  /** The session's record, made when not in memory; concurrent calls share one opening. */
  async open(id: string): Promise<SessionRecord> {
    const record = this.use(id)
    if (record) return record
    let opening = this.#opening.get(id)
    if (!opening) {
      opening = this.#options.open(id).then(({ store, created, unavailable, control }) => {
        this.#opening.delete(id)
        return Object.assign(this.#add(id, store, unavailable, created), control)
      })
      opening.catch(() => this.#opening.delete(id))
      this.#opening.set(id, opening)
    }
    return opening
  }

  /** The record made now, without durable state (with it, `open` reads the log). */
  openNow(id: string): SessionRecord {
    const record = this.use(id)
    if (record) return record
    const { openNow } = this.#options
    invariant(
      openNow,
      'Failed to use session "%s": it is not loaded yet; await sandbox.store("%s") first',
      id,
      id,
    )
    return this.#add(id, openNow(id), undefined, true)
  }

  /** Loads the session's store again (another process wrote it), keeping the rest of the record. */
  async reload(record: SessionRecord): Promise<void> {
    const { store, unavailable, control } = await this.#options.open(record.id)
    Object.assign(record, { store, unavailable }, control)
  }

  /** Puts the session on `store` with nothing else kept: no faults, real clock, empty journal. */
  replace(id: string, store: Store): SessionRecord {
    const old = this.#sessions.get(id)
    if (old) this.#release(old)
    return this.#add(id, store, undefined, old === undefined)
  }

  /** Whether the record is `fresh`; then no longer. */
  takeFresh(id: string): boolean {
    const record = this.#sessions.get(id)
    if (!record?.fresh) return false
    record.fresh = false
    return true
  }

  delete(id: string): void {
    const record = this.#sessions.get(id)
    if (record) this.#release(record)
  }

  /** Runs `task` after every earlier task of the session has finished. */
  run<T>(record: SessionRecord, task: () => Promise<T>): Promise<T> {
    const result = record.queue.then(task, task)
    record.queue = result.catch(() => undefined)
    return result
  }

  #add(
    id: string,
    store: Store,
    unavailable: SandboxError | undefined,
    fresh: boolean,
  ): SessionRecord {
    const old = this.#sessions.get(id)
    if (old) this.#release(old)
    const record: SessionRecord = {
      id,
      store,
      queue: Promise.resolve(),
      faults: undefined,
      clockOffsetMs: undefined,
      journal: undefined,
      active: 0,
      unavailable,
      fresh,
    }
    this.#sessions.set(id, record)
    this.#evict()
    return record
  }

  #release(record: SessionRecord): void {
    this.#sessions.delete(record.id)
    this.#options.onRelease?.(record)
  }

  #evict(): void {
    if (this.#sessions.size <= this.#options.maxSessions) return
    for (const record of this.#sessions.values()) {
      if (this.#sessions.size <= this.#options.maxSessions) break
      if (record.id !== DEFAULT_SESSION && record.active === 0) this.#release(record)
    }
  }
}

export interface ClockState {
  /** ISO 8601. */
  now: string
  /** From the sandbox's clock. */
  offsetSeconds: number
  /** `true` when the session runs on the sandbox's own clock. */
  real: boolean
}

/** A session's clock stays in the years 1970 to 9999, the four-digit years dates are written in. */
export const CLOCK_RANGE = { min: Date.UTC(1970, 0, 1), max: Date.UTC(10_000, 0, 1) - 1 }
const rangeText = `${new Date(CLOCK_RANGE.min).toISOString()} to ${new Date(CLOCK_RANGE.max).toISOString()}`
/** The most an advance may move a clock, either way: the whole range. */
export const MAX_ADVANCE_SECONDS = Math.ceil((CLOCK_RANGE.max - CLOCK_RANGE.min) / 1000)

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
    if (offset === undefined) return now
    // Held in range, so an offset set out of it (not through set or advance) breaks no date.
    const { min, max } = CLOCK_RANGE
    return new Date(Math.min(Math.max(now.getTime() + offset, min), max) || min)
  }

  state(session: string): ClockState {
    const offset = this.#offset(session)
    return {
      now: this.now(session).toISOString(),
      offsetSeconds: (offset ?? 0) / 1000,
      real: offset === undefined,
    }
  }

  /** Throws a 400 `SandboxError` for a date outside {@link CLOCK_RANGE}, the clock unchanged. */
  set(session: string, now: Date): void {
    const record = this.#sessions.openNow(session)
    this.#move(record, now.getTime() - this.base().getTime(), 'now')
  }

  /** Throws a 400 `SandboxError` when the clock would leave {@link CLOCK_RANGE}, unchanged. */
  advance(session: string, seconds: number): void {
    const record = this.#sessions.openNow(session)
    this.#move(record, (record.clockOffsetMs ?? 0) + seconds * 1000, 'advanceSeconds')
  }

  #move(record: SessionRecord, offset: number, field: string): void {
    const to = this.base().getTime() + offset
    if (!(to >= CLOCK_RANGE.min && to <= CLOCK_RANGE.max)) {
      throw badRequest('Clock out of range', [
        `${field} would put the clock outside ${rangeText}; it stays at ${this.now(record.id).toISOString()} (DELETE /__sandbox/clock puts it back on real time)`,
      ])
    }
    record.clockOffsetMs = offset
  }

  reset(session: string): void {
    const record = this.#sessions.peek(session)
    if (record) record.clockOffsetMs = undefined
  }
}
