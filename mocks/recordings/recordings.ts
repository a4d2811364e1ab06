/**
 * @module
 * Reads recorded exchanges, from a HAR 1.2 document or from files of the
 * `spec/examples/<operationId>.json` format, into one plain list. No runtime API.
 */
import { z } from 'zod'
import {
  type RecordedExampleFile,
  recordedExampleFileSchema,
  recordedRequestUrl,
} from '../../spec/examples/index.ts'
import type { SandboxResponse } from '../core/http.ts'
import type { Har } from './har.ts'

/** What the replay accepts: a HAR document, an examples file, or a list of them. */
export type Recordings = Har | RecordedExampleFile | readonly (Har | RecordedExampleFile)[]

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

/** A recordings document that cannot be read, with what is wrong with it. */
export class RecordingsFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RecordingsFormatError'
  }
}

const harSchema = z.object({
  log: z.object({
    entries: z.array(
      z.object({
        request: z.object({
          method: z.string().min(1),
          url: z.string().min(1),
          postData: z.object({ text: z.string().optional() }).optional(),
        }),
        response: z.object({
          status: z.number().int().min(100).max(599),
          headers: z.array(z.object({ name: z.string(), value: z.string() })),
          content: z.object({ text: z.string().optional(), encoding: z.string().optional() }),
        }),
      }),
    ),
  }),
})

/** Headers a replayed answer must not copy: the new connection sets its own. */
const DROPPED_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'content-encoding',
])

function fromHar(document: unknown, where: string): Recording[] {
  const parsed = harSchema.safeParse(document)
  if (!parsed.success) {
    throw new RecordingsFormatError(`${where}not a HAR 1.2 document: ${firstIssue(parsed.error)}`)
  }
  return parsed.data.log.entries.map((entry, index) => {
    let url: URL
    try {
      url = new URL(entry.request.url)
    } catch {
      throw new RecordingsFormatError(
        `${where}entry #${index + 1} has an invalid URL "${entry.request.url}"`,
      )
    }
    const headers: Record<string, string> = {}
    const setCookie: string[] = []
    for (const { name, value } of entry.response.headers) {
      const lower = name.toLowerCase()
      if (lower === 'set-cookie') setCookie.push(value)
      else if (!DROPPED_HEADERS.has(lower)) headers[lower] = value
    }
    const { text = '', encoding } = entry.response.content
    const body = encoding === 'base64' ? atob(text) : text
    const method = entry.request.method.toUpperCase()
    return {
      name: `#${index + 1} ${method} ${url.pathname}${url.search}`,
      method,
      path: url.pathname,
      query: url.searchParams,
      body: entry.request.postData?.text ?? '',
      response: {
        status: entry.response.status,
        headers,
        setCookie,
        body: body === '' && entry.response.status === 204 ? undefined : body,
      },
    }
  })
}

function fromExamples(document: unknown, where: string): Recording[] {
  const parsed = recordedExampleFileSchema.safeParse(document)
  if (!parsed.success) {
    throw new RecordingsFormatError(`${where}not an examples file: ${firstIssue(parsed.error)}`)
  }
  const file = parsed.data
  return Object.entries(file.examples).map(([name, example]) => {
    const url = recordedRequestUrl({ path: file.path, request: example.request })
    const mark = url.indexOf('?')
    return {
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
  })
}

/**
 * The recorded exchanges of a HAR document, an examples file or a list of them, in order.
 * Throws a `RecordingsFormatError` saying what is wrong when a document is neither.
 */
export function readRecordings(recordings: unknown): Recording[] {
  const documents = Array.isArray(recordings) ? recordings : [recordings]
  return documents.flatMap((document: unknown, index) => {
    const where = documents.length > 1 ? `document #${index + 1}: ` : ''
    if (document !== null && typeof document === 'object' && 'log' in document) {
      return fromHar(document, where)
    }
    if (document !== null && typeof document === 'object' && 'examples' in document) {
      return fromExamples(document, where)
    }
    throw new RecordingsFormatError(
      `${where}neither a HAR document (no "log") nor an examples file (no "examples")`,
    )
  })
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  const path = issue.path.length > 0 ? issue.path.join('.') : 'document'
  return `${path}: ${issue.message}`
}
