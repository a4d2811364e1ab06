/**
 * @module
 * The request journal: the most recent requests, bounded, oldest dropped first. Each
 * entry keeps the request and the answer it got, so the journal exports as HAR.
 */
import { createHar, createHarEntry, type Har } from '../recordings/har.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'

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
}

/** The request and the answer of a journal entry, kept as given (not copied). */
export interface JournalExchange {
  request: SandboxRequest
  response: SandboxResponse
}

export interface HarExportOptions {
  /** Only this session's requests. Default: every session. */
  session?: string
  /** Origin the entries' URLs start with. Default `http://localhost`. */
  baseUrl?: string
}

/** Longest body text kept in an exported entry; longer ones are cut and say so. */
export const HAR_BODY_LIMIT = 64 * 1024

const exchanges = new WeakMap<JournalEntry, JournalExchange>()

export class RequestJournal {
  readonly #entries: JournalEntry[] = []
  #start = 0

  readonly limit: number

  constructor(limit: number) {
    this.limit = limit
  }

  record(entry: JournalEntry, exchange?: JournalExchange): void {
    if (this.limit <= 0) return
    if (exchange) exchanges.set(entry, exchange)
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

  /**
   * The journal as a HAR 1.2 document, oldest first, with request and response bodies
   * (each cut at 64 kB). Accepted by Playwright's `routeFromHAR` and @msw/source's
   * `fromTraffic`.
   *
   * @example
   * writeFileSync('session.har', JSON.stringify(sandbox.journal.toHar({ session: 'qa-1' })))
   */
  toHar(options: HarExportOptions = {}): Har {
    const base = (options.baseUrl ?? 'http://localhost').replace(/\/$/, '')
    const entries = this.list(options.session).flatMap((entry) => {
      const exchange = exchanges.get(entry)
      if (!exchange) return []
      const { request, response } = exchange
      const responseHeaders: Record<string, string | string[]> = { ...response.headers }
      if (response.setCookie.length > 0) responseHeaders['set-cookie'] = response.setCookie
      const body =
        response.body === undefined
          ? undefined
          : typeof response.body === 'string'
            ? response.body
            : JSON.stringify(response.body)
      return [
        createHarEntry({
          method: entry.method,
          url: base + request.url,
          requestHeaders: request.headers,
          requestBody: bounded(request.body),
          status: entry.status,
          responseHeaders,
          responseBody: bounded(body),
          startedDateTime: entry.time,
          time: entry.durationMs,
        }),
      ]
    })
    return createHar(entries)
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

function bounded<T extends string | null | undefined>(text: T): T {
  return (text != null && text.length > HAR_BODY_LIMIT ? text.slice(0, HAR_BODY_LIMIT) : text) as T
}
