/**
 * @module
 * Replay: recorded answers layered in front of the stateful operations. A request
 * matches a recording on method, path, query and JSON body (minus the ignored
 * fields); identical requests get the recorded answers in order, the last one
 * repeating. Recordings are indexed by method and path at load, and a route's
 * recordings by query and body when the first request for it comes, so a request
 * never scans the whole list and a large recording loads quickly.
 */
import { jsonResponse, type SandboxResponse } from '../core/http.ts'
import {
  type Recording,
  type RecordingSource,
  type Recordings,
  readRecordingSources,
} from './recordings.ts'

export interface ReplayOptions {
  /** A HAR document, an examples file (`spec/examples` format), or a list of them. */
  recordings: Recordings
  /**
   * Fields left out of matching: query parameter names, and JSON body fields as
   * dotted paths (`reason`, `address.city`). Default: none.
   */
  ignore?: readonly string[]
  /** Answer a request no recording matches with a 404 instead of the model. Default `false`. */
  only?: boolean
}

export interface ReplayRequest {
  method: string
  path: string
  query: URLSearchParams
  body: string | null | undefined
  session: string
}

export interface Replay {
  /** Every recording, read in full (on first access). */
  readonly recordings: readonly Recording[]
  readonly only: boolean
  /** The recorded answer for this request, or `undefined` when none matches. */
  answer(request: ReplayRequest): SandboxResponse | undefined
  /** Starts every sequence over (all sessions, or one). */
  rewind(session?: string): void
}

interface Sequence {
  responses: SandboxResponse[]
  /** Next position, by session. */
  next: Map<string, number>
}

/** `undefined` for a body that is not JSON: its text is matched exactly. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function omit(value: unknown, ignored: readonly string[][]): unknown {
  if (ignored.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const path of ignored) {
    const [head, ...rest] = path
    if (head === undefined || !(head in copy)) continue
    if (rest.length === 0) delete copy[head]
    else copy[head] = omit(copy[head], [rest])
  }
  return copy
}

/** JSON text with object keys sorted, so key order never matters. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? ''
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`
}

/**
 * Prepares recordings for replay: reads them (throwing a `RecordingsFormatError` on
 * a malformed document) and indexes them.
 *
 * @example
 * const replay = createReplay({ recordings: har, ignore: ['dryRun'] })
 * const sandbox = createSandbox({ replay })
 */
export function createReplay(options: ReplayOptions): Replay {
  const sources = readRecordingSources(options.recordings)
  const ignoredQuery = new Set(options.ignore ?? [])
  const ignoredBody = (options.ignore ?? []).map((field) => field.split('.'))

  function signature(query: URLSearchParams, body: string | null | undefined): string {
    const pairs = [...query].filter(([name]) => !ignoredQuery.has(name))
    pairs.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    const text = body ?? ''
    const json = text === '' ? undefined : parseJson(text)
    const bodyKey = json === undefined ? text : canonical(omit(json, ignoredBody))
    return `${new URLSearchParams(pairs).toString()}\n${bodyKey}`
  }

  /** By method and path: the route's recordings, and their sequences once a request came. */
  interface Route {
    sources: RecordingSource[]
    sequences?: Map<string, Sequence>
  }
  const index = new Map<string, Route>()
  for (const source of sources) {
    const key = `${source.method} ${source.path}`
    const route = index.get(key)
    if (route) route.sources.push(source)
    else index.set(key, { sources: [source] })
  }

  function sequencesOf(route: Route): Map<string, Sequence> {
    if (route.sequences) return route.sequences
    const sequences = new Map<string, Sequence>()
    for (const source of route.sources) {
      const recording = source.load()
      const key = signature(recording.query, recording.body)
      const sequence = sequences.get(key)
      if (sequence) sequence.responses.push(recording.response)
      else sequences.set(key, { responses: [recording.response], next: new Map() })
    }
    route.sequences = sequences
    return sequences
  }

  let all: Recording[] | undefined
  return {
    get recordings() {
      all ??= sources.map((source) => source.load())
      return all
    },
    only: options.only ?? false,
    answer(request) {
      const route = index.get(`${request.method.toUpperCase()} ${request.path}`)
      if (!route) return undefined
      const sequence = sequencesOf(route).get(signature(request.query, request.body))
      if (!sequence) return undefined
      const position = sequence.next.get(request.session) ?? 0
      sequence.next.set(request.session, position + 1)
      return sequence.responses[Math.min(position, sequence.responses.length - 1)]
    },
    rewind(session) {
      for (const route of index.values()) {
        for (const sequence of route.sequences?.values() ?? []) {
          if (session === undefined) sequence.next.clear()
          else sequence.next.delete(session)
        }
      }
    },
  }
}

/** The 404 of `only` mode, for a request no recording matches. */
export function noRecordingResponse(method: string, path: string): SandboxResponse {
  return jsonResponse(404, {
    message: `No recording matched ${method} ${path}`,
    code: 'NOT_FOUND',
  })
}
