/**
 * @module
 * Isolated sessions: each id gets its own store, made lazily from its scenario's
 * snapshot on first use, and the least recently used is evicted past a cap.
 */

import type { Snapshot } from '../model/store.ts'
import { createStore, type Store } from '../model/store.ts'

import { DEFAULT_SESSION } from './session-id.ts'

export { DEFAULT_SESSION, isValidSessionId } from './session-id.ts'

interface SessionState {
  store: Store
  /** Serialises the operations of one session, so concurrent writes never interleave. */
  queue: Promise<unknown>
}

export class SessionRegistry {
  readonly #sessions = new Map<string, SessionState>()

  readonly maxSessions: number

  constructor(maxSessions: number) {
    this.maxSessions = maxSessions
  }

  get size(): number {
    return this.#sessions.size
  }

  ids(): string[] {
    return [...this.#sessions.keys()]
  }

  peek(id: string): Store | undefined {
    return this.#sessions.get(id)?.store
  }

  /** The session's state, created from `snapshot` when new. Marks it recently used. */
  acquire(id: string, snapshot: () => Snapshot): SessionState {
    let state = this.#sessions.get(id)
    if (state) {
      this.#sessions.delete(id)
      this.#sessions.set(id, state)
      return state
    }
    state = { store: createStore(snapshot()), queue: Promise.resolve() }
    this.#sessions.set(id, state)
    this.#evict()
    return state
  }

  /** Replaces the session's store with a fresh one over `snapshot`. */
  replace(id: string, snapshot: Snapshot): void {
    this.#sessions.delete(id)
    this.#sessions.set(id, { store: createStore(snapshot), queue: Promise.resolve() })
    this.#evict()
  }

  delete(id: string): void {
    this.#sessions.delete(id)
  }

  /** Runs `task` after every earlier task of the session has finished. */
  run<T>(state: SessionState, task: () => Promise<T>): Promise<T> {
    const result = state.queue.then(task, task)
    state.queue = result.catch(() => undefined)
    return result
  }

  #evict(): void {
    for (const id of this.#sessions.keys()) {
      if (this.#sessions.size <= this.maxSessions) break
      if (id !== DEFAULT_SESSION) this.#sessions.delete(id)
    }
  }
}
