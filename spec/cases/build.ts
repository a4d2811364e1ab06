/**
 * Builders for conformance cases: an operation's profile, replaying a recorded example and its
 * `dryRun=true` twin, the state checks of a success, and error cases.
 *
 * @module
 */
import { getRecordedExample, recordedRequestUrl } from '../examples/index.ts'
import type {
  CaseRequest,
  CollectionName,
  ConformanceCase,
  DocumentKind,
  RecordPattern,
  StateCheck,
} from './types.ts'

/** In a `RecordPattern`: any value except `null` and `undefined`. */
export const NOT_NULL = '$notNull'

/** What the shared error cases need to know about an operation. */
export interface OperationProfile {
  operationId: string
  /** Name of the recorded example that succeeds; error cases reuse its persona, URL and body. */
  success: string
  /** Collections a successful call writes (a `dryRun=true` or failed call must not). */
  writes: readonly CollectionName[]
  /** Documents that require a bearer token for the operation. */
  bearer: readonly DocumentKind[]
  /** Whether the operation takes the `dryRun` query parameter. */
  dryRun: boolean
  /** Documents whose body schema for the operation forbids properties it does not list. */
  closedBody: readonly DocumentKind[]
  /** For an operation that needs a role: a signed-in persona without it (403). */
  lacksRole?: string
}

/**
 * An operation's profile; by default (as most operations are) it needs a bearer token in the
 * merged document, takes `dryRun` and has a closed body there.
 */
export function profile(
  operationId: string,
  success: string,
  writes: readonly CollectionName[],
  more: Partial<OperationProfile> = {},
): OperationProfile {
  const defaults = { bearer: ['merged'], dryRun: true, closedBody: ['merged'] } as const
  return { operationId, success, writes, ...defaults, ...more }
}

/** The `ApiErrorResponseDto` body the sandbox answers. */
export function apiError(code: string, message: string, details?: readonly string[]) {
  return details ? { message, code, details: [...details] } : { message, code }
}

/** The record selected by `where` (a pattern, or an id) goes from matching `before` to `after`. */
export function updated(
  collection: CollectionName,
  where: RecordPattern | string,
  before: RecordPattern,
  after: RecordPattern,
): StateCheck {
  const one = (every: RecordPattern) => ({ count: 1, every })
  return { collection, where: selector(where), before: one(before), after: one(after) }
}

/** No record selected by `where` before, one after (matching `every`, if given). */
export function created(
  collection: CollectionName,
  where: RecordPattern,
  every?: RecordPattern,
): StateCheck {
  const after = every ? { count: 1, every } : { count: 1 }
  return { collection, where, before: { count: 0 }, after }
}

const selector = (where: RecordPattern | string) =>
  typeof where === 'string' ? { id: where } : where

/** One more record selected by `where` after the request (their number before varies). */
export function added(collection: CollectionName, where: RecordPattern): StateCheck {
  return { collection, where, added: 1 }
}

/**
 * A case that replays a recorded example and expects its recorded answer. A failed request
 * must leave the operation's collections untouched.
 */
export function replay(
  profile: OperationProfile,
  name: string,
  changes?: readonly StateCheck[],
): ConformanceCase {
  const example = getRecordedExample(profile.operationId, name)
  const { params: _params, query: _query, ...sent } = example.request
  const { status, body } = example.response
  return {
    name: `${profile.operationId}: ${status} ${lowerFirst(example.summary)}`,
    operationId: profile.operationId,
    // Parsed JSON: the optional fields it has are defined.
    request: { method: example.method, url: recordedRequestUrl(example), ...sent } as CaseRequest,
    expect: { status, body },
    ...(changes ? { changes } : {}),
    ...(status >= 400 && profile.writes.length > 0 ? { unchanged: profile.writes } : {}),
    example: `${profile.operationId}/${name}`,
  }
}

/** Replays of the recorded examples `names`. */
export function replays(profile: OperationProfile, ...names: string[]): ConformanceCase[] {
  return names.map((name) => replay(profile, name))
}

/**
 * The recorded success with the state `changes` it makes and, for an operation that takes
 * `dryRun`, the same request with `dryRun=true`: the same answer, and nothing written.
 */
export function succeeds(
  profile: OperationProfile,
  changes: readonly StateCheck[],
): ConformanceCase[] {
  const success = replay(profile, profile.success, changes)
  return profile.dryRun ? [success, withDryRun(profile, success)] : [success]
}

function withDryRun(profile: OperationProfile, testCase: ConformanceCase): ConformanceCase {
  const { changes: _changes, example: _example, ...rest } = testCase
  return {
    ...rest,
    name: `${testCase.name} (dryRun=true writes nothing)`,
    request: { ...testCase.request, url: setQuery(testCase.request.url, 'dryRun', 'true') },
    ...(profile.writes.length > 0 ? { unchanged: profile.writes } : {}),
  }
}

export interface ErrorSpec {
  request: CaseRequest
  status: number
  body: unknown
  breaks?: readonly DocumentKind[]
  skip?: string
}

/** An error case of `profile`; a failed call leaves the operation's collections untouched. */
export function errorCase(
  profile: OperationProfile,
  title: string,
  { request, status, body, breaks = [], skip }: ErrorSpec,
): ConformanceCase {
  const contract = { ...(breaks.length > 0 ? { breaks } : {}), ...(skip ? { skip } : {}) }
  return {
    name: `${profile.operationId}: ${title}`,
    operationId: profile.operationId,
    request,
    expect: { status, body },
    ...(profile.writes.length > 0 ? { unchanged: profile.writes } : {}),
    ...(Object.keys(contract).length > 0 ? { contract } : {}),
  }
}

/** The request of the operation's recorded success. */
export function successRequest(profile: OperationProfile): CaseRequest {
  return replay(profile, profile.success).request
}

/** `url` with one query parameter set (added or replaced). */
export function setQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url, 'http://sandbox.invalid')
  parsed.searchParams.set(name, value)
  return `${parsed.pathname}${parsed.search}`
}

function lowerFirst(text: string): string {
  return /^[A-Z](?![A-Z])/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text
}
