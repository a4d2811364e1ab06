/**
 * @module
 * The exchanges of a HAR document that the learner reads: each entry checked as the
 * replay checks it, matched to an operation of the table, with its request headers,
 * body and answer. Entries that are no operation (pages, scripts, `/__sandbox`) are
 * kept apart.
 */

import { checkedEntry, RecordingsFormatError } from '../../../recordings/replay/recordings.ts'
import type { Operation } from '../../core/operation.ts'
import { createRouter, type RouteMatch, type Router } from '../../core/router.ts'

/** The request headers the sandbox's answers depend on. */
export interface LearnHeaders {
  authorization: string | undefined
  cookie: string | undefined
  'content-type': string | undefined
}

/** One recorded exchange with an operation of the API. */
export interface LearnExchange {
  /** Position in `log.entries`, from 0. */
  index: number
  operation: Operation
  /** The path and the query string (`?dryRun=true`, or `''`), as recorded. */
  path: string
  search: string
  /**
   * Path parameters, still percent-encoded: one object for every exchange on the same
   * method and path, so what is worked out from them can be kept by it.
   */
  params: Readonly<Record<string, string>>
  /** The request headers the sandbox reads, names in lower case; `undefined` when not sent. */
  headers: LearnHeaders
  /** Request body text, `''` when none. */
  body: string
  status: number
  /** Response body text. */
  answer: string
  /** `Set-Cookie` values of the answer. */
  setCookie: readonly string[]
  /** When it was sent (`startedDateTime`), as recorded; `undefined` when the entry has none. */
  startedDateTime: string | undefined
}

/** `#3 POST /bookings/bkg_1/decline?dryRun=true 201`: the entry's number from 1, as the replay names it. */
const label = (index: number, method: string, path: string, search: string, status: number) =>
  `#${index + 1} ${method} ${path}${search} ${status}`

export const labelOf = (exchange: LearnExchange): string =>
  label(exchange.index, exchange.operation.method, exchange.path, exchange.search, exchange.status)

/** What reading a recording found besides the exchanges themselves. */
export interface ReadSummary {
  /** Entries that are not an operation of the API, by label. */
  others: string[]
  total: number
  /** When the first exchange with a date (`startedDateTime`) was sent. */
  startedAt: Date | undefined
}

export interface ReadExchanges extends ReadSummary {
  exchanges: LearnExchange[]
}

/**
 * The labels of exchanges, kept without the exchanges (their headers, bodies and answers):
 * what a learner that lets each part of a recording go still names exchanges by.
 */
export class ExchangeLabels {
  readonly #indexes: number[] = []
  readonly #methods: string[] = []
  readonly #paths: string[] = []
  readonly #searches: string[] = []
  readonly #statuses: number[] = []

  /** Keeps the label of `exchange`, read after every exchange added so far. */
  add(exchange: LearnExchange): void {
    this.#indexes.push(exchange.index)
    this.#methods.push(exchange.operation.method)
    this.#paths.push(exchange.path)
    this.#searches.push(exchange.search)
    this.#statuses.push(exchange.status)
  }

  /** How many exchanges were added. */
  get size(): number {
    return this.#indexes.length
  }

  /** The label of the exchange of entry `index`, found by halving; `undefined` if none. */
  get(index: number): string | undefined {
    const indexes = this.#indexes
    let low = 0
    let high = indexes.length - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const found = indexes[middle]!
      if (found === index) {
        return label(
          index,
          this.#methods[middle]!,
          this.#paths[middle]!,
          this.#searches[middle]!,
          this.#statuses[middle]!,
        )
      }
      if (found < index) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const NO_COOKIES: readonly string[] = Object.freeze([])

/** The date a HAR's `startedDateTime` names, or `undefined` when it names none. */
export function dateOf(startedDateTime: string): Date | undefined {
  const date = new Date(startedDateTime)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** The only request headers the sandbox's answers depend on. */
const READ = new Set(['authorization', 'cookie', 'content-type'])
const READ_LENGTHS = new Set([...READ].map((name) => name.length))

function headerMap(raw: unknown, where: string): LearnHeaders {
  // Every exchange's headers have the same shape, all three names present.
  const headers: LearnHeaders = {
    authorization: undefined,
    cookie: undefined,
    'content-type': undefined,
  }
  if (raw === undefined) return headers
  if (!Array.isArray(raw)) throw new RecordingsFormatError(`${where}: expected an array`)
  for (const header of raw) {
    if (!isObject(header) || typeof header.name !== 'string' || typeof header.value !== 'string') {
      throw new RecordingsFormatError(`${where}: expected { name, value } strings`)
    }
    // Only names as long as one read are lowered and looked up.
    if (!READ_LENGTHS.has(header.name.length)) continue
    const name = header.name.toLowerCase()
    if (READ.has(name)) headers[name as keyof LearnHeaders] = header.value
  }
  return headers
}

/**
 * The operations' router, remembering each method and path it matched: recordings repeat
 * their routes. Kept by method then path (no key to build), `null` for no operation.
 */
class Routes {
  readonly #router: Router<Operation>
  readonly #matches = new Map<string, Map<string, RouteMatch<Operation> | null>>()
  constructor(operations: readonly Operation[]) {
    this.#router = createRouter(operations.map((value) => ({ ...value, value })))
  }
  match(method: string, path: string): RouteMatch<Operation> | null {
    let paths = this.#matches.get(method)
    if (!paths) {
      paths = new Map()
      this.#matches.set(method, paths)
    }
    let matched = paths.get(path)
    if (matched === undefined) {
      matched = this.#router(method, path) ?? null
      paths.set(path, matched)
    }
    return matched
  }
}

/** Reads entries one at a time, in order: each an exchange, or one of the other entries. */
class ExchangeReader {
  readonly #routes: Routes
  readonly others: string[] = []
  startedAt: Date | undefined

  constructor(operations: readonly Operation[]) {
    this.#routes = new Routes(operations)
  }

  /**
   * Entry `index` as an exchange, or `undefined` for an entry that is no operation (kept
   * in `others`); throws a `RecordingsFormatError` when it is not a HAR entry.
   */
  read(raw: unknown, index: number): LearnExchange | undefined {
    const { entry, method, url } = checkedEntry(raw, index, '')
    const matched = this.#routes.match(method, url.path)
    if (!matched) {
      this.others.push(`#${index + 1} ${method} ${url.path}${url.search}`)
      return undefined
    }
    const started = (raw as { startedDateTime?: unknown }).startedDateTime
    const startedDateTime = typeof started === 'string' ? started : undefined
    if (this.startedAt === undefined) {
      const date = startedDateTime === undefined ? undefined : dateOf(startedDateTime)
      if (date) this.startedAt = date
    }
    const request = (raw as { request: Record<string, unknown> }).request
    const headers = headerMap(request.headers, `log.entries.${index}.request.headers`)
    let setCookie: string[] | undefined
    for (const header of entry.response.headers) {
      if (header.name.length === 10 && header.name.toLowerCase() === 'set-cookie') {
        setCookie ??= []
        setCookie.push(header.value)
      }
    }
    const content = entry.response.content
    const text = typeof content.text === 'string' ? content.text : ''
    return {
      index,
      operation: matched.value,
      path: url.path,
      search: url.search,
      params: matched.params,
      headers,
      body: entry.request.postData?.text ?? '',
      status: entry.response.status,
      answer: content.encoding === 'base64' ? atob(text) : text,
      setCookie: setCookie ?? NO_COOKIES,
      startedDateTime,
    }
  }

  summary(total: number): ReadSummary {
    return { others: this.others, total, startedAt: this.startedAt }
  }
}

function entriesOf(document: unknown): unknown[] {
  const log = isObject(document) ? document.log : undefined
  if (!isObject(log) || !Array.isArray(log.entries)) {
    throw new RecordingsFormatError('not a HAR 1.2 document: log.entries: expected an array')
  }
  return log.entries
}

/**
 * Reads `document` (a parsed HAR): throws a `RecordingsFormatError` naming the first entry
 * that is not a HAR entry, as loading it for replay would.
 */
export function readExchanges(document: unknown, operations: readonly Operation[]): ReadExchanges {
  const entries = entriesOf(document)
  const reader = new ExchangeReader(operations)
  const exchanges: LearnExchange[] = []
  for (let index = 0; index < entries.length; index++) {
    const exchange = reader.read(entries[index], index)
    if (exchange) exchanges.push(exchange)
  }
  return { ...reader.summary(entries.length), exchanges }
}

/**
 * The exchanges of the text of a HAR file, parsed with `JSON.parse` and read by
 * {@link readExchanges}, given in one part to the taker `begin()` returns. Throws a
 * `SyntaxError` for text that is not JSON, a `RecordingsFormatError` for a document that is
 * not a HAR.
 */
export function readHarText(
  text: string,
  operations: readonly Operation[],
  begin: () => (exchanges: LearnExchange[]) => void,
): ReadSummary {
  return readHarDocument(JSON.parse(text), operations, begin)
}

/** {@link readExchanges}, all of them given in one part to the taker `begin()` returns. */
export function readHarDocument(
  document: unknown,
  operations: readonly Operation[],
  begin: () => (exchanges: LearnExchange[]) => void,
): ReadSummary {
  const { exchanges, ...summary } = readExchanges(document, operations)
  begin()(exchanges)
  return summary
}
