/**
 * @module
 * The exchanges of a HAR document the learner reads: each entry checked as the replay checks it
 * and matched to an operation.
 */
import type { Operation } from '../../mocks/core/index.ts'
import { createRouter } from '../../mocks/core/index.ts'
import { checkedEntry, harEntries, RecordingsFormatError } from '../replay/recordings.ts'

const READ = ['authorization', 'cookie', 'content-type'] as const

/** The request headers the sandbox's answers depend on. */
export type LearnHeaders = Record<(typeof READ)[number], string | undefined>

/** One recorded exchange with an operation, by its index in `log.entries`, as recorded. */
export interface LearnExchange {
  index: number
  operation: Operation
  path: string
  /** The query string (`?dryRun=true`, or `''`). */
  search: string
  /** Path parameters, still percent-encoded. */
  params: Readonly<Record<string, string>>
  headers: LearnHeaders
  /** The request and answer bodies' text. */
  body: string
  status: number
  answer: string
  setCookie: readonly string[]
  startedAt: Date | undefined
}

/** A recording's exchanges, its entries that are no operation (by label), when it started. */
export interface ReadExchanges {
  exchanges: LearnExchange[]
  others: string[]
  total: number
  startedAt: Date | undefined
}

/** `#3 POST /bookings/bkg_1/decline?dryRun=true 201`: the entry's number from 1. */
export const labelOf = ({ index, operation, path, search, status }: LearnExchange): string =>
  `#${index + 1} ${operation.method} ${path}${search} ${status}`

/** Only names as long as one read are lowered and looked up: most headers are none of them. */
const READ_LENGTHS = new Set(READ.map((name) => name.length))

function requestHeaders(raw: unknown, index: number): LearnHeaders {
  const headers = Object.fromEntries(READ.map((name) => [name, undefined])) as LearnHeaders
  if (raw === undefined) return headers
  const where = `log.entries.${index}.request.headers`
  if (!Array.isArray(raw)) throw new RecordingsFormatError(`${where}: expected an array`)
  for (const header of raw) {
    if (typeof header?.name !== 'string' || typeof header.value !== 'string') {
      throw new RecordingsFormatError(`${where}: expected { name, value } strings`)
    }
    if (!READ_LENGTHS.has(header.name.length)) continue
    const name = header.name.toLowerCase() as keyof LearnHeaders
    if (READ.includes(name)) headers[name] = header.value
  }
  return headers
}

/** Reads a parsed HAR: a `RecordingsFormatError` names its first entry that is not one. */
export function readExchanges(document: unknown, operations: readonly Operation[]): ReadExchanges {
  const entries = harEntries(document, '')
  const route = createRouter(operations.map((value) => ({ ...value, value })))
  const read: ReadExchanges = {
    exchanges: [],
    others: [],
    total: entries.length,
    startedAt: undefined,
  }
  for (const [index, raw] of entries.entries()) {
    const { entry, method, url } = checkedEntry(raw, index, '')
    const matched = route(method, url.path)
    if (!matched) {
      read.others.push(`#${index + 1} ${method} ${url.path}${url.search}`)
      continue
    }
    const started = (raw as { startedDateTime?: unknown }).startedDateTime
    const date = typeof started === 'string' ? new Date(started) : undefined
    const startedAt = date && !Number.isNaN(date.getTime()) ? date : undefined
    read.startedAt ??= startedAt
    const headers = requestHeaders(entry.request.headers, index)
    const { status, headers: answerHeaders, content } = entry.response
    const text = typeof content.text === 'string' ? content.text : ''
    read.exchanges.push({
      index,
      operation: matched.value,
      path: url.path,
      search: url.search,
      params: matched.params,
      headers,
      body: entry.request.postData?.text ?? '',
      status,
      answer: content.encoding === 'base64' ? atob(text) : text,
      setCookie: answerHeaders
        .filter(({ name }) => name.length === 10 && name.toLowerCase() === 'set-cookie')
        .map(({ value }) => value),
      startedAt,
    })
  }
  return read
}

/** {@link readExchanges} of a HAR file's text, the exchanges given to what `begin()` returns. */
export function readHarText(
  text: string,
  operations: readonly Operation[],
  begin: () => (exchanges: LearnExchange[]) => void,
): Omit<ReadExchanges, 'exchanges'> {
  const { exchanges, ...summary } = readExchanges(JSON.parse(text), operations)
  begin()(exchanges)
  return summary
}
