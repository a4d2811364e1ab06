/**
 * @module
 * Replay: recorded answers in front of the operations, matched on method, path, query and JSON
 * body (less the ignored fields), identical requests answered in recorded order, the last
 * repeating. Indexed by route at load, a route by query and body on its first request.
 */
import stableStringify from 'fast-json-stable-stringify'
import type { SandboxResponse, SandboxStage } from '../../mocks/core/index.ts'
import { notFound } from '../../mocks/core/index.ts'
import {
  parseJson,
  type Recording,
  type Recordings,
  RecordingsFormatError,
  readRecordingSources,
  routeKey,
} from './recordings.ts'

/**
 * What is wrong with a recorded answer (one line naming it), `undefined`, or `null` for a request
 * no operation of the API has (a page's asset, say): outside the contract, so not checked.
 */
export type RecordingCheck = (recording: Recording) => string | null | undefined

export interface ReplayOptions {
  /** A HAR document, an examples file (`spec/examples` format), or a list of them. */
  recordings: Recordings
  /** Fields left out of matching: query parameter names, JSON body fields as dotted paths. */
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
  /** Checks every recording, a slice at a time; the problems in file order, malformed entries too. */
  checkAll(load: () => Promise<RecordingCheck>): Promise<string[]>
  /** The malformed entries found so far, one line each. */
  readonly malformed: readonly string[]
  /** The recordings of no operation of the API checked so far, by name, in file order. */
  readonly notChecked: readonly string[]
  /** Set by `checkAll`: resolves once its check is loaded; requests wait for it. */
  readonly checkLoaded: Promise<void> | undefined
  /** The recorded answer for this request, or `undefined` when none matches. */
  answer(request: ReplayRequest): SandboxResponse | undefined
  /** Starts every sequence over (all sessions, or one). */
  rewind(session?: string): void
  /** The stage a sandbox plugs in before the model. */
  readonly stage: SandboxStage
}

/** Identical requests' answers, and the next position by session. */
type Sequence = { responses: SandboxResponse[]; next: Map<string, number> }

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
 * Reads recordings (a `RecordingsFormatError` on a malformed document) and indexes them.
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
    const bodyKey = json === undefined ? text : stableStringify(omit(json, ignoredBody))
    return `${new URLSearchParams(pairs).toString()}\n${bodyKey}`
  }

  /** By `routeKey`: the recordings, then their sequences by query and body once a request came. */
  const index = new Map<string, { sources: number[]; sequences?: Map<string, Sequence> }>()
  for (let i = 0; i < sources.length; i++) {
    const route = sources[i]!.route
    const bucket = index.get(route)
    if (bucket) bucket.sources.push(i)
    else index.set(route, { sources: [i] })
  }

  /** By source index, once checked: its problem, or `''` for none (or no operation: `outside`). */
  const problems: string[] = new Array(sources.length)
  const outside: string[] = []
  const malformed: string[] = []
  let check: RecordingCheck | undefined

  function read(i: number): Recording | undefined {
    let recording: Recording
    try {
      recording = sources[i]!.load()
    } catch (error) {
      if (!(error instanceof RecordingsFormatError)) throw error
      problems[i] = error.message
      malformed.push(error.message)
      return undefined
    }
    if (check && problems[i] === undefined) {
      const problem = check(recording)
      problems[i] = problem ?? ''
      if (problem === null) outside[i] = recording.name
    }
    return recording
  }

  function sequencesOf(bucket: { sources: number[]; sequences?: Map<string, Sequence> }) {
    if (bucket.sequences) return bucket.sequences
    const sequences = new Map<string, Sequence>()
    for (const i of bucket.sources) {
      const recording = read(i)
      // A malformed entry is never answered; it is among the check's problems.
      if (!recording) continue
      const key = signature(recording.query, recording.body)
      const sequence = sequences.get(key)
      if (sequence) sequence.responses.push(recording.response)
      else sequences.set(key, { responses: [recording.response], next: new Map() })
    }
    bucket.sequences = sequences
    return sequences
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
      for (; i < sources.length && performance.now() < until; i++) {
        if (problems[i] === undefined) read(i)
      }
      if (i < sources.length) await new Promise((resolve) => setTimeout(resolve, 0))
    }
    return problems.filter((problem) => problem !== '')
  }

  let all: Recording[] | undefined
  const replay: Replay = {
    get recordings() {
      all ??= sources.map((source) => source.load())
      return all
    },
    size: sources.length,
    only: options.only ?? false,
    checkAll,
    malformed,
    // Sparse, by source index: `filter` gives the names in file order.
    get notChecked() {
      return outside.filter(() => true)
    },
    get checkLoaded() {
      return checkLoaded
    },
    answer(request) {
      const bucket = index.get(routeKey(request.method, request.path))
      const sequence = bucket && sequencesOf(bucket).get(signature(request.query, request.body))
      if (!sequence) return undefined
      const position = sequence.next.get(request.session) ?? 0
      sequence.next.set(request.session, position + 1)
      return sequence.responses[Math.min(position, sequence.responses.length - 1)]
    },
    rewind(session) {
      for (const bucket of index.values()) {
        for (const sequence of bucket.sequences?.values() ?? []) {
          if (session === undefined) sequence.next.clear()
          else sequence.next.delete(session)
        }
      }
    },
    stage: {
      async answer({ method, path, query, request, session }) {
        // A recorded answer is checked against the contract before it is first given.
        if (checkLoaded) await checkLoaded
        const answer = replay.answer({ method, path, query, body: request.body, session })
        if (answer || !replay.only) return answer
        return notFound(`No recording matched ${method} ${path}`).toResponse()
      },
      rewind: (session) => replay.rewind(session),
    },
  }
  return replay
}

/**
 * The replay `input` stands for: the one given, or one made of its options. The one way every
 * entry loads a replay (the browser entry, by a dynamic import, only when asked for one).
 */
export const replayOf = (input: ReplayOptions | Replay): Replay =>
  'answer' in input ? input : createReplay(input)

export function breakingAnswersHeading(count: number): string {
  return count === 1
    ? '1 recorded answer breaks the merged contract:'
    : `${count} recorded answers break the merged contract:`
}

/** Checks every recording (`Replay.checkAll`) and warns of those that break the contract. */
export async function checkReplayAndWarn(replay: Replay, load: () => Promise<RecordingCheck>) {
  const problems = await replay.checkAll(load)
  if (problems.length > 0) {
    console.warn(`[sandbox] ${breakingAnswersHeading(problems.length)}\n  ${problems.join('\n  ')}`)
  }
  return problems
}
