/**
 * @module
 * HAR 1.2 entries from plain exchanges: the journal export and the recorder write the same thing.
 */
import type { Entry, Har, Header } from 'har-format'
import { bounded, type JournalHarWriter } from '../mocks/core/index.ts'

export type { Entry as HarEntry, Har, Header as HarHeader } from 'har-format'

/** One exchange in plain values; `url` absolute, `time` in ms from request to answer. */
export interface Exchange {
  method: string
  url: string
  requestHeaders: Readonly<Record<string, string | readonly string[] | undefined>>
  requestBody?: string | null | undefined
  status: number
  statusText?: string
  responseHeaders: Readonly<Record<string, string | readonly string[] | undefined>>
  responseBody?: string | undefined
  startedDateTime: string
  time: number
}

function headerList(headers: Exchange['requestHeaders']): Header[] {
  return Object.entries(headers).flatMap(([name, value = []]) =>
    (typeof value === 'string' ? [value] : value).map((one) => ({ name, value: one })),
  )
}

function first(headers: Exchange['requestHeaders'], name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' ? value : value?.[0]
}

const encoder = new TextEncoder()

/** The HAR entry of one exchange, bodies as text. */
export function createHarEntry(exchange: Exchange): Entry {
  const url = new URL(exchange.url)
  const requestType = first(exchange.requestHeaders, 'content-type')
  const responseType = first(exchange.responseHeaders, 'content-type') ?? ''
  const responseText = exchange.responseBody ?? ''
  const responseSize = encoder.encode(responseText).length
  const entry: Entry = {
    startedDateTime: exchange.startedDateTime,
    time: exchange.time,
    request: {
      method: exchange.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(exchange.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: exchange.requestBody ? encoder.encode(exchange.requestBody).length : 0,
    },
    response: {
      status: exchange.status,
      statusText: exchange.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(exchange.responseHeaders),
      content: { size: responseSize, mimeType: responseType, text: responseText },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseSize,
    },
    cache: {},
    timings: { send: 0, wait: exchange.time, receive: 0 },
  }
  if (exchange.requestBody) {
    entry.request.postData = { mimeType: requestType ?? '', text: exchange.requestBody }
  }
  return entry
}

export function createHar(entries: Entry[]): Har {
  return {
    log: { version: '1.2', creator: { name: 'platform-sandbox', version: '0.1.0' }, entries },
  }
}

/** The journal as HAR (bodies cut at 64 kB), behind `journal.toHar()` and `requests.har`. */
export const writeJournalHar: JournalHarWriter = (exports, options) => {
  const base = (options.baseUrl ?? 'http://localhost').replace(/\/$/, '')
  const entries = exports.map(({ entry, request, response }) => {
    const responseHeaders: Record<string, string | string[]> = { ...response.headers }
    if (response.setCookie.length > 0) responseHeaders['set-cookie'] = response.setCookie
    const { body: raw } = response
    const body = raw === undefined || typeof raw === 'string' ? raw : JSON.stringify(raw)
    return createHarEntry({
      method: entry.method,
      url: base + request.url,
      requestHeaders: request.headers,
      requestBody: bounded(request.body),
      status: entry.status,
      responseHeaders,
      responseBody: bounded(body),
      startedDateTime: entry.time,
      time: entry.durationMs,
    })
  })
  return createHar(entries)
}
