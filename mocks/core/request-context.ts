/**
 * @module
 * One request as every stage of the pass reads it, made once at the edge: its method, path,
 * query, headers, cookies (parsed once) and the session it names; its body and its caller read
 * on first use, once; and what the pass finds on its way, which the journal entry says.
 */

import type { Store } from '../model/store.ts'
import { type Caller, findCaller } from './caller.ts'
import type { ChangeSummary } from './change-summary.ts'
import { parseCookies, type SandboxRequest, type SandboxResponse, splitUrl } from './http.ts'
import type { Operation } from './operation.ts'
import type { BodyReading } from './request-input.ts'
import type { RouteMatch } from './router.ts'
import { sessionIdOf } from './session-id.ts'
import type { SessionRecord } from './sessions.ts'
import type { TokenSettings } from './tokens.ts'

/** What a request is answered on: the sandbox's settings, on its session's clock. */
export interface PipelineSettings {
  tokens: TokenSettings
  strictContract: boolean
  bodyLimitBytes: number
  now(): Date
  /**
   * Awaited between the decision and the writes of a POST that is not a dry run: a write-ahead
   * log appends the request here; a `SandboxError` refuses the write, nothing applied.
   */
  commit?: (() => void | Promise<void>) | undefined
}

/** The operation whose route a caller (an msw handler) has already matched. */
export interface MatchedOperation {
  operation: Operation
}

/**
 * A request's context is a `SandboxRequest` too, so that an adapter can make it at its edge and
 * hand it to `sandbox.handle` (the Node server's request log reads it then); as a request, its
 * method is the one routed.
 */
export class RequestContext implements SandboxRequest {
  /** In upper case; `GET` for `HEAD`, which is answered as a `GET` without the body. */
  readonly method: string
  readonly head: boolean
  /** Without the query. */
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: SandboxRequest['headers']
  /** The adapter's (with its jar's), else the `Cookie` header's. */
  readonly cookies: Readonly<Record<string, string>>
  /** The session the request names, not yet checked: the pass refuses an invalid id (400). */
  readonly session: string
  readonly started = performance.now()
  // What the pass finds on its way: the journal entry says it.
  /** ISO time it arrived on its session's clock, and the settings on that clock. */
  time = ''
  settings: PipelineSettings | undefined
  /** Matched once: an operation's route (then `operation`, `params`) or a control route. */
  route: RouteMatch<unknown> | undefined
  operation: Operation | undefined
  params: Record<string, string> = {}
  /** No stage answered it (a 404 or 405): it creates no session. */
  unrouted = false
  /** Its session's record, kept in memory while it answers. */
  record: SessionRecord | undefined
  /** Set once it reached its operation. */
  operationId: string | null = null
  /** A fault rule's id, or `prefer`: why the answer is not the operation's own. */
  fault: string | undefined
  /** What `Prefer` answers in place of the outcome, once the checks pass. */
  instead: (() => SandboxResponse) | undefined
  dryRun: boolean | null = null
  /** A persona key, or the user's public id. */
  persona: string | undefined
  /** What its operation's writes changed, for the journal. */
  changes: ChangeSummary | undefined
  /** What went wrong in an operation of your own (`JournalEntry.problem`). */
  problem: string | undefined
  /** The body parser's reading (`readBody`) and the caller (`callerIn`), once made. */
  reading: BodyReading | undefined
  #caller: Promise<Caller> | undefined
  readonly request: SandboxRequest
  /** The operation whose route the adapter (msw, a mounted server) already matched. */
  matched: MatchedOperation | undefined

  constructor(request: SandboxRequest, matched?: MatchedOperation) {
    this.request = request
    this.matched = matched
    const method = request.method.toUpperCase()
    this.head = method === 'HEAD'
    this.method = this.head ? 'GET' : method
    const { path, query } = splitUrl(request.url)
    this.path = path
    this.query = query
    this.headers = request.headers
    this.cookies = request.cookies ?? parseCookies(request.headers.cookie)
    this.session = sessionIdOf(request.headers, this.cookies)
  }

  /** Who the request comes from in `store` (`findCaller`), worked out on first use. */
  callerIn(store: Store): Promise<Caller> {
    this.#caller ??= findCaller(this, store, this.settings!)
    return this.#caller
  }

  /** Set when it passes the stages a second time, on its session loaded anew. */
  passedAgain = false

  /** Before a second pass on the session loaded anew: what the first one decided is forgotten. */
  passAgain(settings: PipelineSettings): void {
    this.passedAgain = true
    this.#caller = undefined
    this.fault = this.instead = this.changes = this.problem = this.persona = undefined
    this.dryRun = null
    this.settings = settings
    this.time = settings.now().toISOString()
  }

  get url(): string {
    return this.request.url
  }

  get body(): string | null | undefined {
    return this.request.body
  }

  get bodyTooLarge(): boolean | undefined {
    return this.request.bodyTooLarge
  }
}
