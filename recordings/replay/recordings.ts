/**
 * @module
 * Recorded exchanges read from HAR 1.2 documents or `spec/examples/<operationId>.json` files.
 */
import type { SandboxResponse } from '../../mocks/core/index.ts'
import type { z } from '../../mocks/model/zod.ts'
import {
  type RecordedExampleFile,
  recordedExampleFileSchema,
  recordedRequestUrl,
} from '../../spec/examples/index.ts'
import type { Har, HarEntry } from '../har.ts'

/** A recordings file read from disk (`recordingsFile`), named in errors, parsed on load. */
export interface RecordingsFile {
  name: string
  sources(): RecordingSource[]
}

type RecordingsDocument = Har | RecordedExampleFile | RecordingsFile

/** What the replay accepts: a HAR document, an examples file, a file's bytes, or a list. */
export type Recordings = RecordingsDocument | readonly RecordingsDocument[]

/** One recorded exchange, ready to match and to answer. */
export interface Recording {
  /** `#3 POST http://host/path` for a HAR entry, `operationId/name` for an example. */
  name: string
  method: string
  path: string
  query: URLSearchParams
  /** The request body text, `''` when there was none. */
  body: string
  response: SandboxResponse
}

/** A recording's `routeKey`, known at load; `load` reads the rest. */
export interface RecordingSource {
  route: string
  load(): Recording
}

/** A recordings document that cannot be read, with what is wrong with it. */
export class RecordingsFormatError extends Error {
  override name = 'RecordingsFormatError'
}

/** The JSON value of a body's text; `undefined` for one that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The replay's index key of a request: `METHOD path`, the method in upper case. */
export const routeKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * What is wrong with a HAR entry, or only its request (what its route is read from) unless
 * `whole`. By hand: a schema would slow the load of a 10,000-entry recording.
 */
function entryProblem(entry: unknown, whole: boolean): string | undefined {
  if (!isObject(entry)) return 'is not an object'
  const { request, response } = entry
  if (!isObject(request)) return 'request: expected an object'
  if (typeof request.method !== 'string' || request.method === '') {
    return 'request.method: expected a method'
  }
  if (typeof request.url !== 'string') return 'request.url: expected a string'
  if (!whole) return undefined
  if (request.postData !== undefined && !isObject(request.postData)) {
    return 'request.postData: expected an object'
  }
  if (!isObject(response)) return 'response: expected an object'
  const status = response.status
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    return 'response.status: expected an HTTP status from 100 to 599'
  }
  if (!Array.isArray(response.headers)) return 'response.headers: expected an array'
  for (const header of response.headers) {
    if (!isObject(header) || typeof header.name !== 'string' || typeof header.value !== 'string') {
      return 'response.headers: expected { name, value } strings'
    }
  }
  if (!isObject(response.content)) return 'response.content: expected an object'
  return undefined
}

/**
 * Path and query string of an absolute URL, as written (no normalisation). Scanned by hand: a
 * pattern makes the load of a 10,000-entry recording about 1 ms slower.
 */
export function splitRecordedUrl(url: string): { path: string; search: string } | undefined {
  const scheme = url.indexOf('://')
  if (scheme <= 0) return undefined
  const slash = url.indexOf('/', scheme + 3)
  let rest = slash === -1 ? '/' : url.slice(slash)
  const hash = rest.indexOf('#')
  if (hash !== -1) rest = rest.slice(0, hash)
  const mark = rest.indexOf('?')
  return mark === -1
    ? { path: rest, search: '' }
    : { path: rest.slice(0, mark), search: rest.slice(mark) }
}

/** A HAR entry checked (only its request unless `whole`), with its method and URL split. */
export function checkedEntry(raw: unknown, index: number, where: string, whole = true) {
  const problem = entryProblem(raw, whole)
  const at = `log.entries.${index}`
  if (problem) throw new RecordingsFormatError(`${where}not a HAR 1.2 document: ${at}.${problem}`)
  const entry = raw as HarEntry
  const url = splitRecordedUrl(entry.request.url)
  if (!url) {
    const { url } = entry.request
    throw new RecordingsFormatError(`${where}${at}.request.url is not an absolute URL: "${url}"`)
  }
  return { entry, method: entry.request.method.toUpperCase(), url }
}

/** Headers the new connection sets itself. */
const DROPPED_HEADERS =
  /^(?:content-length|transfer-encoding|connection|keep-alive|date|content-encoding)$/

function harRecording({ entry, method, url }: ReturnType<typeof checkedEntry>, index: number) {
  const headers: Record<string, string> = {}
  const setCookie: string[] = []
  for (const { name, value } of entry.response.headers) {
    const lower = name.toLowerCase()
    if (lower === 'set-cookie') setCookie.push(value)
    else if (!DROPPED_HEADERS.test(lower)) headers[lower] = value
  }
  const { text = '', encoding } = entry.response.content
  const body = encoding === 'base64' ? atob(text) : text
  return {
    name: `#${index + 1} ${method} ${url.path}${url.search}`,
    method,
    path: url.path,
    query: new URLSearchParams(url.search),
    body: entry.request.postData?.text ?? '',
    response: {
      status: entry.response.status,
      headers,
      setCookie,
      body: body === '' && entry.response.status === 204 ? undefined : body,
    },
  }
}

/** A HAR document's entries, unchecked. */
export function harEntries(document: unknown, where: string): unknown[] {
  const log = isObject(document) ? document.log : undefined
  if (!isObject(log) || !Array.isArray(log.entries)) {
    throw new RecordingsFormatError(
      `${where}not a HAR 1.2 document: log.entries: expected an array`,
    )
  }
  return log.entries
}

/** A HAR document's sources, each entry checked whole now or, `lazy` (a file's), on `load`. */
function fromHar(document: Record<string, unknown>, where: string, lazy: boolean) {
  const entries = harEntries(document, where)
  if (!lazy) for (const [index, entry] of entries.entries()) checkedEntry(entry, index, where)
  const read: Recording[] = []
  return entries.map((raw, index): RecordingSource => {
    const { method, url } = checkedEntry(raw, index, where, false)
    return {
      route: routeKey(method, url.path),
      load: () => (read[index] ??= harRecording(checkedEntry(raw, index, where), index)),
    }
  })
}

export function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  return `${issue.path.length > 0 ? issue.path.join('.') : 'document'}: ${issue.message}`
}

function fromExamples(document: unknown, where: string): RecordingSource[] {
  const parsed = recordedExampleFileSchema.safeParse(document)
  if (!parsed.success) {
    throw new RecordingsFormatError(`${where}not an examples file: ${firstIssue(parsed.error)}`)
  }
  const file = parsed.data
  return Object.entries(file.examples).map(([name, example]) => {
    const url = recordedRequestUrl({ path: file.path, request: example.request })
    const mark = url.indexOf('?')
    const recording: Recording = {
      name: `${file.operationId}/${name}`,
      method: file.method,
      path: mark === -1 ? url : url.slice(0, mark),
      query: new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1)),
      body: example.request.body === undefined ? '' : JSON.stringify(example.request.body),
      response: {
        status: example.response.status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        setCookie: [],
        body: example.response.body,
      },
    }
    return { route: routeKey(recording.method, recording.path), load: () => recording }
  })
}

/** The recordings of one parsed document; `lazy` leaves a HAR entry's check to its first use. */
export function fromDocument(document: unknown, where: string, lazy = false): RecordingSource[] {
  if (isObject(document) && 'log' in document) return fromHar(document, where, lazy)
  if (isObject(document) && 'examples' in document) return fromExamples(document, where)
  throw new RecordingsFormatError(
    `${where}neither a HAR document (no "log") nor an examples file (no "examples")`,
  )
}

/** The recordings' sources, each read on first use. */
export function readRecordingSources(recordings: unknown): RecordingSource[] {
  const documents = Array.isArray(recordings) ? recordings : [recordings]
  return documents.flatMap((document: unknown, index) => {
    if (isObject(document) && typeof document.sources === 'function') {
      return (document as unknown as RecordingsFile).sources()
    }
    return fromDocument(document, documents.length > 1 ? `document #${index + 1}: ` : '')
  })
}

/** The recordings of HAR documents or examples files, in order; else a `RecordingsFormatError`. */
export function readRecordings(recordings: unknown): Recording[] {
  return readRecordingSources(recordings).map((source) => source.load())
}
