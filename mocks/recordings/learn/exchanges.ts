/**
 * @module
 * The exchanges of a HAR document that the learner reads: each entry checked as the
 * replay checks it, matched to an operation of the table, with its request headers,
 * body and answer. Entries that are no operation (pages, scripts, `/__sandbox`) are
 * kept apart.
 */
import type { Operation } from '../../core/operation.ts'
import { createRouter } from '../../core/router.ts'
import { checkedEntry, RecordingsFormatError } from '../recordings.ts'

/** One recorded exchange with an operation of the API. */
export interface LearnExchange {
  /** Position in `log.entries`, from 0. */
  index: number
  operation: Operation
  /** The path and the query string (`?dryRun=true`, or `''`), as recorded. */
  path: string
  search: string
  /** Path parameters, still percent-encoded. */
  params: Record<string, string>
  /** The request headers the sandbox reads (`authorization`, `cookie`, `content-type`), names in lower case. */
  headers: Record<string, string>
  /** Request body text, `''` when none. */
  body: string
  status: number
  /** Response body text. */
  answer: string
  /** `Set-Cookie` values of the answer. */
  setCookie: string[]
  /** When the request was sent (`startedDateTime`), if it is a date. */
  startedAt: Date | undefined
}

/** `#3 POST /bookings/bkg_1/decline?dryRun=true 201`: the entry's number from 1, as the replay names it. */
export const labelOf = (exchange: LearnExchange): string =>
  `#${exchange.index + 1} ${exchange.operation.method} ${exchange.path}${exchange.search} ${exchange.status}`

export interface ReadExchanges {
  exchanges: LearnExchange[]
  /** Entries that are not an operation of the API, by label. */
  others: string[]
  total: number
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The only request headers the sandbox's answers depend on. */
const READ = new Set(['authorization', 'cookie', 'content-type'])

function headerMap(raw: unknown, where: string): Record<string, string> {
  const headers: Record<string, string> = {}
  if (raw === undefined) return headers
  if (!Array.isArray(raw)) throw new RecordingsFormatError(`${where}: expected an array`)
  for (const header of raw) {
    if (!isObject(header) || typeof header.name !== 'string' || typeof header.value !== 'string') {
      throw new RecordingsFormatError(`${where}: expected { name, value } strings`)
    }
    const name = header.name.toLowerCase()
    if (READ.has(name)) headers[name] = header.value
  }
  return headers
}

/**
 * Reads `document` (a parsed HAR): throws a `RecordingsFormatError` naming the first entry
 * that is not a HAR entry, as loading it for replay would.
 */
export function readExchanges(document: unknown, operations: readonly Operation[]): ReadExchanges {
  const log = isObject(document) ? document.log : undefined
  if (!isObject(log) || !Array.isArray(log.entries)) {
    throw new RecordingsFormatError('not a HAR 1.2 document: log.entries: expected an array')
  }
  const router = createRouter(operations.map((value) => ({ ...value, value })))
  // Recordings repeat their routes: each method and path is matched once.
  const matches = new Map<string, ReturnType<typeof router>>()
  const route = (method: string, path: string) => {
    const key = `${method} ${path}`
    if (!matches.has(key)) matches.set(key, router(method, path))
    return matches.get(key)
  }
  const exchanges: LearnExchange[] = []
  const others: string[] = []
  log.entries.forEach((raw: unknown, index) => {
    const { entry, method, url } = checkedEntry(raw, index, '')
    const matched = route(method, url.path)
    if (!matched) {
      others.push(`#${index + 1} ${method} ${url.path}${url.search}`)
      return
    }
    const request = (raw as { request: Record<string, unknown> }).request
    const response = (raw as { response: Record<string, unknown> }).response
    const headers = headerMap(request.headers, `log.entries.${index}.request.headers`)
    const setCookie: string[] = []
    for (const header of response.headers as Array<{ name: string; value: string }>) {
      if (header.name.toLowerCase() === 'set-cookie') setCookie.push(header.value)
    }
    const content = entry.response.content
    const text = typeof content.text === 'string' ? content.text : ''
    const started = (raw as { startedDateTime?: unknown }).startedDateTime
    const startedAt = typeof started === 'string' ? new Date(started) : undefined
    exchanges.push({
      index,
      operation: matched.value,
      path: url.path,
      search: url.search,
      params: matched.params,
      headers,
      body: entry.request.postData?.text ?? '',
      status: entry.response.status,
      answer: content.encoding === 'base64' ? atob(text) : text,
      setCookie,
      startedAt: startedAt && !Number.isNaN(startedAt.getTime()) ? startedAt : undefined,
    })
  })
  return { exchanges, others, total: log.entries.length }
}
