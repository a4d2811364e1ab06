/**
 * @module
 * Sessions, one record each (store, fault rules, clock, journal), made on first use (from the
 * scenario or a durable log) and evicted whole, least recently used first past the cap, unless
 * a request is in flight in it: what the sandbox holds is bounded whatever the traffic.
 */
import { invariant } from 'outvariant'
import type { Store } from '../model/store.ts'
import type { SandboxError } from './errors.ts'
import type { CompiledRule } from './fault-rules.ts'
import type { JournalEntry } from './journal-entry.ts'
import { DEFAULT_SESSION } from './session-id.ts'

export { DEFAULT_SESSION, isValidSessionId } from './session-id.ts'

/** A session's fault rules, in the order they were added. */
export interface SessionFaults {
  rules: CompiledRule[]
  /** Rules added so far, for the next generated id (`f3`). */
  created: number
}

/** A journal entry with the place it has among every session's entries. */
export interface JournalSlot {
  sequence: number
  entry: JournalEntry
}

/** Everything the sandbox keeps for one session. */
export interface SessionRecord {
  readonly id: string
  store: Store
  /** Serialises the operations of one session, so concurrent writes never interleave. */
  queue: Promise<unknown>
  faults: SessionFaults | undefined
  /** How far the session's clock is from the sandbox's, in milliseconds; unset when real. */
  clockOffsetMs: number | undefined
  /** The session's own journal, oldest first; `undefined` until its first entry. */
  journal: JournalSlot[] | undefined
  /** Requests being answered in this session: it is not evicted under them. */
  active: number
  /** Set when the session's durable state cannot be read: every use of it answers this. */
  unavailable: SandboxError | undefined
  /** Started from its scenario, and no answer has said so yet (`x-sandbox-session-created`). */
  fresh: boolean
}

/** What makes a record for a session that is not in memory. */
export type OpenSession = (id: string) => Promise<{
  store: Store
  /** `true` when the session starts from its scenario; `false` when it was reloaded. */
  created: boolean
  unavailable?: SandboxError | undefined
}>

export interface SessionRegistryOptions {
  maxSessions: number
  /** Makes the record of a session that is not in memory. */
  open: OpenSession
  /** Makes it without waiting, when nothing durable has to be read (no state directory). */
  openNow?: ((id: string) => Store) | undefined
  /** Called with each record that leaves memory (evicted, dropped). */
  onRelease?: ((record: SessionRecord) => void) | undefined
}

export class SessionRegistry {
  readonly #sessions = new Map<string, SessionRecord>()
  readonly #opening = new Map<string, Promise<{ record: SessionRecord; created: boolean }>>()
  readonly #options: SessionRegistryOptions

  readonly maxSessions: number

  constructor(options: SessionRegistryOptions) {
    this.#options = options
    this.maxSessions = options.maxSessions
  }

  get size(): number {
    return this.#sessions.size
  }

  ids(): string[] {
    return [...this.#sessions.keys()]
  }

  /** Records, least recently used first. */
  records(): IterableIterator<SessionRecord> {
    return this.#sessions.values()
  }

  /** The session's record if it is in memory, without marking it used. */
  peek(id: string): SessionRecord | undefined {
    return this.#sessions.get(id)
  }

  /** The session's record if it is in memory, marked recently used. */
  use(id: string): SessionRecord | undefined {
    const record = this.#sessions.get(id)
    if (record && this.#sessions.size > 1) {
      this.#sessions.delete(id)
      this.#sessions.set(id, record)
    }
    return record
  }

  /**
   * The session's record, made when it is not in memory; `created` when it started
   * from its scenario. Concurrent calls for one session share one opening.
   */
  async open(id: string): Promise<{ record: SessionRecord; created: boolean }> {
    const record = this.use(id)
    if (record) return { record, created: false }
    let opening = this.#opening.get(id)
    if (!opening) {
      opening = this.#options.open(id).then(({ store, created, unavailable }) => {
        this.#opening.delete(id)
        return { record: this.#add(id, store, unavailable, created), created }
      })
      opening.catch(() => this.#opening.delete(id))
      this.#opening.set(id, opening)
    }
    return opening
  }

  /**
   * The session's record, made now when it is not in memory. Only without durable state
   * (a sandbox with a state directory opens sessions with `open`, which reads the log).
   */
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

  /** Puts the session on `store` with nothing else kept: no faults, real clock, empty journal. */
  replace(id: string, store: Store): SessionRecord {
    const old = this.#sessions.get(id)
    if (old) this.#release(old)
    return this.#add(id, store, undefined, old === undefined)
  }

  /** Whether the session started from its scenario and no answer has said so yet; then no longer. */
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
    if (this.#sessions.size <= this.maxSessions) return
    for (const record of this.#sessions.values()) {
      if (this.#sessions.size <= this.maxSessions) break
      if (record.id !== DEFAULT_SESSION && record.active === 0) this.#release(record)
    }
  }
}
