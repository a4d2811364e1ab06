/**
 * @module
 * The exchanges of a HAR document that the learner reads: each entry checked as the
 * replay checks it, matched to an operation of the table, with its request headers,
 * body and answer. Entries that are no operation (pages, scripts, `/__sandbox`) are
 * kept apart.
 */
import type { Operation } from '../../core/operation.ts'
import { createRouter, type RouteMatch, type Router } from '../../core/router.ts'
import { harEntryChunks } from '../har-index.ts'
import { checkedEntry, RecordingsFormatError } from '../recordings.ts'

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
}

/** `#3 POST /bookings/bkg_1/decline?dryRun=true 201`: the entry's number from 1, as the replay names it. */
export const labelOf = (exchange: LearnExchange): string =>
  `#${exchange.index + 1} ${exchange.operation.method} ${exchange.path}${exchange.search} ${exchange.status}`

export interface ReadExchanges {
  exchanges: LearnExchange[]
  /** Entries that are not an operation of the API, by label. */
  others: string[]
  total: number
  /** When the first exchange with a date (`startedDateTime`) was sent. */
  startedAt: Date | undefined
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const NO_COOKIES: readonly string[] = Object.freeze([])

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

/** Reads entries one at a time, in order, into the exchanges and the other entries. */
class ExchangeReader {
  readonly #routes: Routes
  readonly exchanges: LearnExchange[] = []
  readonly others: string[] = []
  startedAt: Date | undefined

  constructor(operations: readonly Operation[]) {
    this.#routes = new Routes(operations)
  }

  /** Reads entry `index`; throws a `RecordingsFormatError` when it is not a HAR entry. */
  add(raw: unknown, index: number): void {
    const { entry, method, url } = checkedEntry(raw, index, '')
    const matched = this.#routes.match(method, url.path)
    if (!matched) {
      this.others.push(`#${index + 1} ${method} ${url.path}${url.search}`)
      return
    }
    if (this.startedAt === undefined) {
      const started = (raw as { startedDateTime?: unknown }).startedDateTime
      const date = typeof started === 'string' ? new Date(started) : undefined
      if (date && !Number.isNaN(date.getTime())) this.startedAt = date
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
    this.exchanges.push({
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
    })
  }

  result(total: number): ReadExchanges {
    return { exchanges: this.exchanges, others: this.others, total, startedAt: this.startedAt }
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
  for (let index = 0; index < entries.length; index++) reader.add(entries[index], index)
  return reader.result(entries.length)
}

/** How much of a HAR's text is parsed at a time: a few hundred entries of a recording. */
const CHUNK = 200_000

/**
 * Reads the text of a HAR file, as {@link readExchanges} reads it parsed, a part at a
 * time (`harEntryChunks`): a large recording is never held parsed in full, which spares
 * the garbage collector copying all of it. Anything unexpected (a part that does not
 * parse, an entry that is not a HAR entry) sends it to `JSON.parse` of the whole text
 * and {@link readExchanges}, so the errors are theirs: a `SyntaxError` for text that is
 * not JSON, a `RecordingsFormatError` otherwise.
 */
export function readHarText(
  text: string,
  operations: readonly Operation[],
  partSize = CHUNK,
): ReadExchanges {
  const split = harEntryChunks(text, partSize)
  if (split) {
    try {
      entriesOf(JSON.parse(split.envelope))
      const reader = new ExchangeReader(operations)
      let index = 0
      for (const chunk of split.chunks) {
        const entries = JSON.parse(chunk) as unknown[]
        for (const entry of entries) reader.add(entry, index++)
      }
      return reader.result(index)
    } catch {
      // Read again below, as a whole, which names what is wrong.
    }
  }
  return readExchanges(JSON.parse(text), operations)
}
