/**
 * @module
 * Replay: recorded answers layered in front of the stateful operations. A request
 * matches a recording on method, path, query and JSON body (minus the ignored
 * fields); identical requests get the recorded answers in order, the last one
 * repeating. Recordings are indexed by method and path at load, and a route's
 * recordings by query and body when the first request for it comes, so a request
 * never scans the whole list and a large recording loads quickly.
 */
import stableStringify from 'fast-json-stable-stringify'
import { notFound } from '../core/errors.ts'
import type { SandboxResponse } from '../core/http.ts'
import {
  type Recording,
  type Recordings,
  RecordingsFormatError,
  readRecordingSources,
  StaleRecordingIndex,
} from './recordings.ts'
import { routeHash } from './route-hash.ts'

/** What is wrong with a recorded answer (one line naming it), or `undefined`. */
export type RecordingCheck = (recording: Recording) => string | undefined

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
  /** How many recordings there are, without reading them. */
  readonly size: number
  readonly only: boolean
  /**
   * Checks every recording with the check `load` gives: a slice at a time, leaving the
   * event loop free for requests in between. Until it is done, a request's recordings
   * are checked before their first answer, once the check is loaded (`checkLoaded`).
   * Resolves with the problems, in file order: the check's, and each malformed entry's.
   */
  checkAll(load: () => Promise<RecordingCheck>): Promise<string[]>
  /** The malformed entries found so far (parsing them failed), one line each. */
  readonly malformed: readonly string[]
  /** Set by `checkAll`: resolves once its check is loaded. Requests wait for it. */
  readonly checkLoaded: Promise<void> | undefined
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
    if (head === undefined || !Object.hasOwn(copy, head)) continue
    if (rest.length === 0) delete copy[head]
    else copy[head] = omit(copy[head], [rest])
  }
  return copy
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
  let sources = readRecordingSources(options.recordings)
  const ignoredQuery = new Set(options.ignore ?? [])
  const ignoredBody = (options.ignore ?? []).map((field) => field.split('.'))

  function signature(query: URLSearchParams, body: string | null | undefined): string {
    const pairs = [...query].filter(([name]) => !ignoredQuery.has(name))
    pairs.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    const text = body ?? ''
    const json = text === '' ? undefined : parseJson(text)
    const bodyKey = json === undefined ? text : stableStringify(omit(json, ignoredBody))
    return `${new URLSearchParams(pairs).toString()}\n${bodyKey}`
  }

  /** By `routeHash`: the recordings, then their sequences by method and path once a request came. */
  interface Bucket {
    sources: number[]
    routes?: Map<string, Map<string, Sequence>>
  }
  let index = indexByRoute()
  function indexByRoute(): Map<number, Bucket> {
    const byRoute = new Map<number, Bucket>()
    for (let i = 0; i < sources.length; i++) {
      const route = sources[i]!.route
      const bucket = byRoute.get(route)
      if (bucket) bucket.sources.push(i)
      else byRoute.set(route, { sources: [i] })
    }
    return byRoute
  }

  /** The positions of the sequences answered before the files were indexed again. */
  const carried = new Map<string, Map<string, number>>()

  /** Checks run so far, by source index: `true` once checked (a problem is kept apart). */
  let checked = new Uint8Array(sources.length)
  const problems = new Map<number, string>()
  const malformed: string[] = []
  /** A file found not to be a HAR document only when indexed again. */
  const fileProblems: string[] = []
  let check: RecordingCheck | undefined

  /**
   * A file's quick index did not hold (see `har-index.ts`): every file is indexed again
   * by reading all of its structure, and what was read or checked is read again. A file
   * that turns out not to be a HAR document at all is then a malformed one: it answers
   * nothing, and the check reports it.
   */
  function reindex(): void {
    // Where each sequence is, by session, goes on after the files are indexed again.
    for (const bucket of index.values()) {
      for (const [route, sequences] of bucket.routes ?? []) {
        for (const [key, sequence] of sequences) carried.set(`${route}\n${key}`, sequence.next)
      }
    }
    try {
      sources = readRecordingSources(options.recordings, { exact: true })
    } catch (error) {
      if (!(error instanceof RecordingsFormatError)) throw error
      sources = []
      fileProblems.push(error.message)
      malformed.push(error.message)
    }
    index = indexByRoute()
    checked = new Uint8Array(sources.length)
    problems.clear()
    all = undefined
  }

  /** `read` on, after indexing again when the quick index of a file did not hold. */
  function exactly<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      if (!(error instanceof StaleRecordingIndex)) throw error
      reindex()
      return work()
    }
  }

  /** The source's recording, checked when a check is loaded; `undefined` when malformed. */
  function read(i: number): Recording | undefined {
    let recording: Recording | undefined
    try {
      recording = sources[i]!.load()
    } catch (error) {
      // A `StaleRecordingIndex` goes up, to `exactly`.
      if (!(error instanceof RecordingsFormatError)) throw error
      problems.set(i, error.message)
      malformed.push(error.message)
      checked[i] = 1
      return undefined
    }
    if (check && checked[i] === 0) {
      const problem = check(recording)
      if (problem) problems.set(i, problem)
      checked[i] = 1
    }
    return recording
  }

  function routesOf(bucket: Bucket): Map<string, Map<string, Sequence>> {
    if (bucket.routes) return bucket.routes
    const routes = new Map<string, Map<string, Sequence>>()
    for (const i of bucket.sources) {
      const recording = read(i)
      // A malformed entry is never answered; it is among the check's problems.
      if (!recording) continue
      const route = `${recording.method} ${recording.path}`
      const sequences = routes.get(route) ?? new Map<string, Sequence>()
      routes.set(route, sequences)
      const key = signature(recording.query, recording.body)
      const sequence = sequences.get(key)
      if (sequence) sequence.responses.push(recording.response)
      else {
        const next = carried.get(`${route}\n${key}`) ?? new Map<string, number>()
        sequences.set(key, { responses: [recording.response], next })
      }
    }
    bucket.routes = routes
    return routes
  }

  let checkLoaded: Promise<void> | undefined
  async function checkAll(load: () => Promise<RecordingCheck>): Promise<string[]> {
    checkLoaded = load().then((loaded) => {
      check = loaded
    })
    await checkLoaded
    let i = 0
    while (i < sources.length) {
      // About 8 ms of checking at a time, then the event loop answers what came.
      const until = performance.now() + 8
      try {
        for (; i < sources.length && performance.now() < until; i++) {
          if (checked[i] === 0) read(i)
        }
      } catch (error) {
        if (!(error instanceof StaleRecordingIndex)) throw error
        reindex()
        i = 0
      }
      if (i < sources.length) await new Promise((resolve) => setTimeout(resolve, 0))
    }
    return [
      ...fileProblems,
      ...[...problems].sort(([a], [b]) => a - b).map(([, problem]) => problem),
    ]
  }

  let all: Recording[] | undefined
  return {
    get recordings() {
      all ??= exactly(() => sources.map((source) => source.load()))
      return all
    },
    get size() {
      return sources.length
    },
    only: options.only ?? false,
    checkAll,
    malformed,
    get checkLoaded() {
      return checkLoaded
    },
    answer(request) {
      const method = request.method.toUpperCase()
      const sequences = exactly(() => {
        const bucket = index.get(routeHash(method, request.path))
        return bucket && routesOf(bucket).get(`${method} ${request.path}`)
      })
      const sequence = sequences?.get(signature(request.query, request.body))
      if (!sequence) return undefined
      const position = sequence.next.get(request.session) ?? 0
      sequence.next.set(request.session, position + 1)
      return sequence.responses[Math.min(position, sequence.responses.length - 1)]
    },
    rewind(session) {
      for (const next of carried.values()) {
        if (session === undefined) next.clear()
        else next.delete(session)
      }
      for (const bucket of index.values()) {
        for (const sequences of bucket.routes?.values() ?? []) {
          for (const sequence of sequences.values()) {
            if (session === undefined) sequence.next.clear()
            else sequence.next.delete(session)
          }
        }
      }
    },
  }
}

/** The 404 of `only` mode, for a request no recording matches. */
export function noRecordingResponse(method: string, path: string): SandboxResponse {
  return notFound(`No recording matched ${method} ${path}`).toResponse()
}
