/**
 * @module
 * The request journal: the most recent requests, bounded, oldest dropped first.
 */

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
}

export class RequestJournal {
  readonly #entries: JournalEntry[] = []
  readonly #listeners = new Set<(entry: JournalEntry) => void>()
  #start = 0

  readonly limit: number

  constructor(limit: number) {
    this.limit = limit
  }

  /** Calls `listener` with every entry recorded from now on; returns the unsubscribe. */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  record(entry: JournalEntry): void {
    if (this.#listeners.size > 0) for (const listener of this.#listeners) listener(entry)
    if (this.limit <= 0) return
    if (this.#entries.length < this.limit) {
      this.#entries.push(entry)
    } else {
      this.#entries[this.#start] = entry
      this.#start = (this.#start + 1) % this.limit
    }
  }

  /** Entries oldest first, optionally only those of one session. */
  list(session?: string): JournalEntry[] {
    const ordered = [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)]
    return session === undefined ? ordered : ordered.filter((entry) => entry.session === session)
  }

  clear(session?: string): void {
    if (session === undefined) {
      this.#entries.length = 0
      this.#start = 0
      return
    }
    const kept = this.list().filter((entry) => entry.session !== session)
    this.#entries.length = 0
    this.#start = 0
    this.#entries.push(...kept)
  }
}
