/**
 * @module
 * The journal entry of one request, built in one place, and the bounded journal of each session;
 * it exports as HAR with the writer the assembling entry gives or loads (`recordings/har.ts`).
 */
import type { Har } from 'har-format'
import { notFound } from './errors.ts'
import type { JournalExport } from './events.ts'
import { announce, type JournalEntry, type JournalExchange, type SandboxEvents } from './events.ts'
import type { SandboxResponse } from './http.ts'
import type { RequestContext } from './request-context.ts'
import type { JournalSlot, SessionRecord, SessionRegistry } from './sessions.ts'
import type { SharedJournal } from './state-store.ts'

export type { JournalEntry, JournalExchange, JournalExport } from './events.ts'

/**
 * Said by the answer that made its session from the scenario again (first use, after eviction
 * or a drop), so a QA run that lost its state can tell.
 */
export const SESSION_CREATED_HEADER = 'x-sandbox-session-created'

function markSessionCreated(response: SandboxResponse, created: boolean): SandboxResponse {
  if (!created) return response
  return { ...response, headers: { ...response.headers, [SESSION_CREATED_HEADER]: 'true' } }
}

/** What the journal shows of a credential-like query value (the recorder's: `[REDACTED]`). */
export const REDACTED_IN_JOURNAL = '[redacted]'

/** Query parameters that carry credentials: tokens, secrets, passwords, keys, codes. */
const SECRET_NAME =
  /token|secret|passw|pwd|api[-_]?key|signature|jwt|credential|auth|session[-_]?id|^(code|key|sig|assertion)$/i

/**
 * The query as a plain object, credential-like values replaced: the journal is read by anyone
 * who can reach `/__sandbox/requests`.
 */
export function redactQuery(query: URLSearchParams): Record<string, string> {
  // Defined, not assigned, so that `?__proto__=` is a parameter like any other; the last wins.
  return Object.fromEntries(
    [...query].map(([name, value]) => [name, SECRET_NAME.test(name) ? REDACTED_IN_JOURNAL : value]),
  )
}

/** What a gateway in front of the backend answers: rate limited, bad upstream, down, too slow. */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])

/** Marks a request the sandbox's own tools sent on their own (the MCP tools' sign-ins). */
export const CLIENT_HEADER = 'x-sandbox-client'
const CLIENT_NAME = /^[a-z][a-z0-9-]{0,31}$/

/**
 * Journals an answer: its entry, made of the request's context, announced (`request:end`),
 * and the answer marked when it made its session (which is then no longer fresh).
 */
export function journalAnswer(
  events: SandboxEvents,
  sessions: SessionRegistry,
  context: RequestContext,
  answer: SandboxResponse,
): SandboxResponse {
  const created = sessions.takeFresh(context.session)
  const response = markSessionCreated(answer, created)
  const entry: JournalEntry = {
    method: context.head ? 'HEAD' : context.method,
    path: context.path,
    query: redactQuery(context.query),
    status: response.status,
    dryRun: context.dryRun,
    session: context.session,
    time: context.time,
    durationMs: performance.now() - context.started,
    operationId: context.operationId,
  }
  if (context.persona) entry.persona = context.persona
  if (context.fault !== undefined) {
    entry.fault = context.fault
    if (GATEWAY_STATUSES.has(response.status)) entry.gateway = true
  }
  if (created) entry.sessionCreated = true
  if (context.problem) entry.problem = context.problem
  const refusal = response.status >= 400 ? (response.body as { message?: unknown } | null) : null
  if (typeof refusal?.message === 'string') entry.message = refusal.message.slice(0, 200)
  if (context.changes && Object.keys(context.changes).length > 0) entry.changes = context.changes
  const client = context.request.headers[CLIENT_HEADER]
  if (typeof client === 'string' && CLIENT_NAME.test(client)) entry.client = client
  announce(events, 'request:end', { entry, exchange: { request: context.request, response } })
  return response
}

export type JournalHarWriter = (exports: JournalExport[], options: HarExportOptions) => Har

export interface HarExportOptions {
  /** Default: every session. */
  session?: string
  /** Default `http://localhost`. */
  baseUrl?: string
}

/** Longest body text kept in an exported entry. */
const HAR_BODY_LIMIT = 64 * 1024

const exchanges = new WeakMap<JournalEntry, JournalExchange>()

/** The request journal of every runtime, the Playwright server's too. */
export interface RequestJournal {
  /** Most entries kept for one session. */
  readonly limit: number
  record(entry: JournalEntry, exchange?: JournalExchange): void
  /** Entries oldest first: one session's, or every session's in the order they came. */
  list(session?: string): JournalEntry[]
  /** The journal as a HAR 1.2 document (see {@link SessionJournals.toHar}). */
  toHar(options?: HarExportOptions, kept?: JournalExport[]): Har
  /** A store shared by several processes: the journal every one of them adds to, to read. */
  readonly shared?: SharedJournal | undefined
  /** Loads the HAR writer when it is loaded on first use (the browser's), before `toHar`. */
  loadHar?(): Promise<void>
  /** Empties one session's journal, or every session's. */
  clear(session?: string): void
}

/**
 * Each session's record holds its last `perSession` entries; all together at most `total`, the
 * least recently used sessions' oldest going first. Requests that created no session (an unknown
 * route) share one more journal of `perSession` entries.
 */
export class SessionJournals implements RequestJournal {
  #detached: JournalSlot[] = []
  #sequence = 0
  #count = 0
  readonly #sessions: SessionRegistry
  #writeHar: JournalHarWriter | undefined
  readonly #loadHar: (() => Promise<JournalHarWriter>) | undefined
  readonly limit: number
  readonly #totalLimit: number
  readonly shared: SharedJournal | undefined

  constructor(
    sessions: SessionRegistry,
    limits: { perSession: number; total: number },
    writeHar?: JournalHarWriter,
    loadHar?: () => Promise<JournalHarWriter>,
    shared?: SharedJournal,
  ) {
    this.shared = shared
    this.#sessions = sessions
    this.limit = limits.perSession
    this.#totalLimit = limits.total
    this.#writeHar = writeHar
    this.#loadHar = loadHar
  }

  get size(): number {
    return this.#count + this.#detached.length
  }

  /** Adds an entry to its session's journal; dropped when the session is not in memory. */
  record(entry: JournalEntry, exchange?: JournalExchange): void {
    if (this.limit <= 0 || this.#totalLimit <= 0) return
    const cut = exchange && boundedExchange(exchange)
    if (cut) exchanges.set(entry, cut)
    if (cut) this.shared?.add({ entry, ...cut })
    const record = this.#sessions.peek(entry.session)
    if (!record) {
      // A request of a session not in memory that created nothing (an unknown route).
      this.#detached.push({ sequence: ++this.#sequence, entry })
      if (this.#detached.length > this.limit) this.#detached.shift()
      return
    }
    if (!record.journal) record.journal = []
    const journal = record.journal
    journal.push({ sequence: ++this.#sequence, entry })
    this.#count++
    if (journal.length > this.limit) {
      journal.shift()
      this.#count--
    }
    if (this.#count > this.#totalLimit) this.#trim()
  }

  list(session?: string): JournalEntry[] {
    if (session !== undefined) {
      const own = this.#sessions.peek(session)?.journal ?? []
      const detached = this.#detached.filter((slot) => slot.entry.session === session)
      if (detached.length === 0) return own.map((slot) => slot.entry)
      return [...detached, ...own].sort((a, b) => a.sequence - b.sequence).map((slot) => slot.entry)
    }
    const slots: JournalSlot[] = [...this.#detached]
    for (const record of this.#sessions.records()) if (record.journal) slots.push(...record.journal)
    return slots.sort((a, b) => a.sequence - b.sequence).map((slot) => slot.entry)
  }

  /**
   * The journal as a HAR 1.2 document (bodies cut at 64 kB) by the writer the sandbox was given,
   * a 404 without one; Playwright's `routeFromHAR` and @msw/source's `fromTraffic` read it.
   * @example
   * writeFileSync('session.har', JSON.stringify(sandbox.journal.toHar({ session: 'qa-1' })))
   */
  toHar(options: HarExportOptions = {}, kept?: JournalExport[]): Har {
    if (!this.#writeHar) throw notFound('The HAR export is not available in this sandbox')
    // With a shared store, those of every process (`kept`).
    const entries =
      kept ??
      this.list(options.session).flatMap((entry) => {
        const exchange = exchanges.get(entry)
        return exchange ? [{ entry, ...exchange }] : []
      })
    return this.#writeHar(entries, options)
  }

  async loadHar(): Promise<void> {
    this.#writeHar ??= await this.#loadHar?.()
  }

  clear(session?: string): void {
    if (session === undefined) {
      for (const record of this.#sessions.records()) this.forget(record)
      this.#detached = []
      return
    }
    const record = this.#sessions.peek(session)
    if (record) this.forget(record)
    else this.#forgetDetached(session)
  }

  /** Lets go of a record's entries (it was reset, evicted or dropped). */
  forget(record: SessionRecord): void {
    this.#count -= record.journal?.length ?? 0
    record.journal = undefined
    this.#forgetDetached(record.id)
  }

  #forgetDetached(session: string): void {
    if (this.#detached.some((slot) => slot.entry.session === session)) {
      this.#detached = this.#detached.filter((slot) => slot.entry.session !== session)
    }
  }

  /** Drops whole oldest entries of the least recently used sessions, to 90% of the total. */
  #trim(): void {
    const target = Math.floor(this.#totalLimit * 0.9)
    for (const record of this.#sessions.records()) {
      const journal = record.journal
      if (!journal) continue
      const drop = Math.min(journal.length, this.#count - target)
      journal.splice(0, drop)
      this.#count -= drop
      if (journal.length === 0) record.journal = undefined
      if (this.#count <= target) return
    }
  }
}

/** The exchange with each body text cut at 64 kB, so one entry's size is bounded. */
function boundedExchange(exchange: JournalExchange): JournalExchange {
  const { request, response } = exchange
  const requestBody = request.body
  const responseBody = response.body
  const longRequest = typeof requestBody === 'string' && requestBody.length > HAR_BODY_LIMIT
  const longResponse = typeof responseBody === 'string' && responseBody.length > HAR_BODY_LIMIT
  if (!longRequest && !longResponse) return exchange
  return {
    request: longRequest ? { ...request, body: bounded(requestBody) } : request,
    response: longResponse ? { ...response, body: bounded(responseBody) } : response,
  }
}

export function bounded<T extends string | null | undefined>(text: T): T {
  return (text != null && text.length > HAR_BODY_LIMIT ? text.slice(0, HAR_BODY_LIMIT) : text) as T
}
