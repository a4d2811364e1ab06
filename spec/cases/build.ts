/**
 * Builders for conformance cases: replaying a recorded example, its `dryRun=true` twin, and
 * the error cases every operation shares (bad token, missing token, bad `dryRun`, malformed
 * or oversized body, wrong media type), derived from the operation's recorded success.
 *
 * @module
 */
import { getRecordedExample, recordedRequestUrl } from '../examples/index.ts'
import type {
  CaseRequest,
  CollectionName,
  ConformanceCase,
  DocumentKind,
  StateCheck,
} from './types.ts'

/** In a `RecordPattern`: any value except `null` and `undefined`. */
export const NOT_NULL = '$notNull'

/** Larger than the sandbox's 100 kB body limit. */
const OVERSIZED = 110 * 1024

/** What the shared error cases need to know about an operation. */
export interface OperationProfile {
  operationId: string
  /** Name of the recorded example that succeeds; error cases reuse its persona, URL and body. */
  success: string
  /** Documents that require a bearer token for the operation. */
  bearer: readonly DocumentKind[]
  /** Whether the operation takes the `dryRun` query parameter. */
  dryRun: boolean
  /** Documents whose body schema for the operation forbids properties it does not list. */
  closedBody: readonly DocumentKind[]
  /** Collections a successful call writes (a `dryRun=true` or failed call must not). */
  writes: readonly CollectionName[]
  /** For an operation that needs a role: a signed-in persona without it (403). */
  lacksRole?: string
}

/** Merged with a success's body: a property no body schema of the merged document allows. */
const UNKNOWN_PROPERTY = { unknownProperty: true }

/** The `ApiErrorResponseDto` body the sandbox answers. */
export function apiError(code: string, message: string, details?: readonly string[]) {
  return details ? { message, code, details: [...details] } : { message, code }
}

/**
 * A case that replays a recorded example and expects its recorded answer. A failed request
 * must leave the operation's collections untouched.
 *
 * @example
 * replay(bookings, 'bookingNotPending') // POST /bookings/bkg_accepted/decline as host -> 409
 */
export function replay(
  profile: OperationProfile,
  name: string,
  more: { changes?: readonly StateCheck[] } = {},
): ConformanceCase {
  const example = getRecordedExample(profile.operationId, name)
  const request: CaseRequest = { method: example.method, url: recordedRequestUrl(example) }
  if (example.request.as !== undefined) request.as = example.request.as
  if (example.request.authorization !== undefined) {
    request.authorization = example.request.authorization
  }
  if (example.request.headers !== undefined) request.headers = example.request.headers
  if (example.request.body !== undefined) request.body = example.request.body
  const status = example.response.status
  const failed = status >= 400
  return {
    name: `${profile.operationId}: ${status} ${lowerFirst(example.summary)}`,
    operationId: profile.operationId,
    request,
    expect: { status, body: example.response.body },
    ...(more.changes ? { changes: more.changes } : {}),
    ...(failed && profile.writes.length > 0 ? { unchanged: profile.writes } : {}),
    example: `${profile.operationId}/${name}`,
  }
}

/** The same request with `dryRun=true`: the same answer, and nothing written. */
export function withDryRun(profile: OperationProfile, testCase: ConformanceCase): ConformanceCase {
  const { changes: _changes, example: _example, ...rest } = testCase
  return {
    ...rest,
    name: `${testCase.name} (dryRun=true writes nothing)`,
    request: { ...testCase.request, url: setQuery(testCase.request.url, 'dryRun', 'true') },
    ...(profile.writes.length > 0 ? { unchanged: profile.writes } : {}),
  }
}

/** A request body the operation's merged contract and the sandbox both refuse. */
export function invalidBody(
  profile: OperationProfile,
  body: unknown,
  details: readonly string[],
  breaks: readonly DocumentKind[],
): ConformanceCase {
  const success = successRequest(profile)
  return errorCase(profile, `400 when the body is invalid (${JSON.stringify(body)})`, {
    request: { ...success, body },
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', details),
    breaks,
  })
}

/**
 * The error cases every operation shares, derived from its recorded success: 401 for a bad
 * and for a missing bearer token, 400 for a bad `dryRun`, malformed JSON and a body that is not
 * an object, 413 for a body over 100 kB, 415 for a body that is not JSON; and the order of
 * refusals (docs/decisions/0012-order-of-refusals.md): a request that is refused for two
 * reasons gets the refusal of the earlier stage, 401 and 403 before 400.
 */
export function sharedErrorCases(profile: OperationProfile): ConformanceCase[] {
  const success = successRequest(profile)
  const cases: ConformanceCase[] = []
  if (profile.bearer.includes('merged')) {
    const { as: _as, ...anonymous } = success
    cases.push(
      errorCase(profile, '401 when the bearer token is not a valid access token', {
        request: { ...anonymous, authorization: 'Bearer not-a-jwt' },
        status: 401,
        body: apiError('UNAUTHORIZED', 'Invalid access token'),
      }),
      errorCase(profile, '401 without a bearer token', {
        request: anonymous,
        status: 401,
        body: apiError('UNAUTHORIZED', 'Missing bearer token: send Authorization: Bearer <token>'),
        breaks: profile.bearer,
      }),
    )
  }
  if (profile.bearer.includes('merged')) {
    const { as: _as, ...anonymous } = success
    const missingToken = apiError(
      'UNAUTHORIZED',
      'Missing bearer token: send Authorization: Bearer <token>',
    )
    if (success.method === 'POST') {
      cases.push(
        errorCase(profile, '401 before 400: no token and a body its schema refuses', {
          request: { ...anonymous, body: { ...(success.body as object), ...UNKNOWN_PROPERTY } },
          status: 401,
          body: missingToken,
          breaks: [...new Set([...profile.bearer, ...profile.closedBody])],
        }),
      )
    }
    if (profile.dryRun) {
      cases.push(
        errorCase(profile, '401 before 400: no token and dryRun neither true nor false', {
          request: { ...anonymous, url: setQuery(success.url, 'dryRun', 'maybe') },
          status: 401,
          body: missingToken,
          breaks: ['published', 'merged'],
        }),
      )
    }
  }
  if (profile.lacksRole !== undefined && success.method === 'POST') {
    cases.push(
      errorCase(
        profile,
        '403 before 400: a caller without the role and a body its schema refuses',
        {
          request: {
            ...success,
            as: profile.lacksRole,
            url: profile.dryRun ? setQuery(success.url, 'dryRun', 'maybe') : success.url,
            body: { ...(success.body as object), ...UNKNOWN_PROPERTY },
          },
          status: 403,
          body: apiError('FORBIDDEN', 'This operation requires the admin role'),
          breaks: ['published', 'merged'],
        },
      ),
    )
  }
  if (profile.dryRun) {
    cases.push(
      errorCase(profile, '400 when dryRun is neither true nor false', {
        request: { ...success, url: setQuery(success.url, 'dryRun', 'maybe') },
        status: 400,
        body: apiError('BAD_REQUEST', 'Validation failed', ['dryRun must be one of: true, false']),
        breaks: ['published', 'merged'],
      }),
    )
  }
  if (success.method === 'POST') {
    const { body: _body, ...bodiless } = success
    cases.push(
      errorCase(profile, '400 when the body is malformed JSON', {
        request: {
          ...bodiless,
          rawBody: '{"unfinished": ',
          headers: { 'content-type': 'application/json' },
        },
        status: 400,
        body: apiError('BAD_REQUEST', 'Malformed JSON in request body', [
          'body must be valid JSON',
        ]),
        skip: 'Prism parses the body first and answers 400 invalid_json itself, so the sandbox is never reached',
      }),
      errorCase(profile, '400 when the body is not a JSON object', {
        request: { ...bodiless, body: ['not', 'an', 'object'] },
        status: 400,
        body: apiError('BAD_REQUEST', 'Validation failed', ['body must be an object']),
        breaks: ['published', 'merged'],
      }),
      errorCase(profile, '413 when the body is over 100 kB', {
        request: { ...bodiless, body: { padding: 'x'.repeat(OVERSIZED) } },
        status: 413,
        body: apiError('PAYLOAD_TOO_LARGE', 'Request body is larger than 102400 bytes'),
        breaks: profile.closedBody,
      }),
      errorCase(profile, '415 when the body is not JSON', {
        request: { ...bodiless, rawBody: 'plain text', headers: { 'content-type': 'text/plain' } },
        status: 415,
        body: apiError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Unsupported media type "text/plain": send application/json',
        ),
        breaks: ['published', 'merged'],
      }),
    )
  }
  for (const [status, code] of GATEWAY_ANSWERS) {
    cases.push(
      errorCase(profile, `${status} when Prefer asks for a gateway's answer`, {
        request: { ...success, headers: { ...success.headers, prefer: `code=${status}` } },
        status,
        body: apiError(code, `Answered ${status} as the Prefer header asked`),
      }),
    )
  }
  return cases
}

/** What a gateway in front of the backend answers, and the sandbox gives when asked. */
const GATEWAY_ANSWERS = [
  [429, 'TOO_MANY_REQUESTS'],
  [502, 'BAD_GATEWAY'],
  [503, 'SERVICE_UNAVAILABLE'],
  [504, 'GATEWAY_TIMEOUT'],
] as const

/** An error case of `profile`; a failed call leaves the operation's collections untouched. */
export function errorCase(
  profile: OperationProfile,
  title: string,
  spec: {
    request: CaseRequest
    status: number
    body?: unknown
    breaks?: readonly DocumentKind[]
    skip?: string
  },
): ConformanceCase {
  const contract = {
    ...(spec.breaks && spec.breaks.length > 0 ? { breaks: spec.breaks } : {}),
    ...(spec.skip ? { skip: spec.skip } : {}),
  }
  return {
    name: `${profile.operationId}: ${title}`,
    operationId: profile.operationId,
    request: spec.request,
    expect: { status: spec.status, ...(spec.body === undefined ? {} : { body: spec.body }) },
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
