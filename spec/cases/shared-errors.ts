/**
 * @module
 * The error cases every operation shares (bad or missing token, bad `dryRun`, malformed,
 * oversized or non-JSON body, a gateway's answer), derived from its recorded success.
 */
import {
  apiError,
  type ErrorSpec,
  errorCase,
  type OperationProfile,
  setQuery,
  successRequest,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

/** Merged with a success's body: a property no body schema of the merged document allows. */
const UNKNOWN_PROPERTY = { unknownProperty: true }

/** Larger than the sandbox's 100 kB body limit. */
const OVERSIZED = 110 * 1024

/**
 * The error cases every operation shares, derived from its recorded success: 401 for a bad
 * and for a missing bearer token, 400 for a bad `dryRun`, malformed JSON and a body that is not
 * an object, 413 for a body over 100 kB, 415 for a body that is not JSON; and the order of
 * refusals (docs/decisions/0012-order-of-refusals.md): a request that is refused for two
 * reasons gets the refusal of the earlier stage, 401 and 403 before 400. First, with `details`,
 * the 400 of an `invalid` body that the merged contract and the sandbox both refuse.
 */
export function sharedErrorCases(
  profile: OperationProfile,
  invalid?: unknown,
  details?: readonly string[],
): ConformanceCase[] {
  const success = successRequest(profile)
  const post = success.method === 'POST'
  const refusedBody = { ...(success.body as object), ...UNKNOWN_PROPERTY }
  const badDryRun = setQuery(success.url, 'dryRun', 'maybe')
  const cases: ConformanceCase[] = []
  const add = (title: string, spec: ErrorSpec) => cases.push(errorCase(profile, title, spec))
  if (details) {
    add(`400 when the body is invalid (${JSON.stringify(invalid)})`, {
      request: { ...success, body: invalid },
      status: 400,
      body: apiError('BAD_REQUEST', 'Validation failed', details),
      breaks: ['merged'],
    })
  }
  if (profile.bearer.includes('merged')) {
    const { as: _as, ...anonymous } = success
    const missingToken = apiError(
      'UNAUTHORIZED',
      'Missing bearer token: send Authorization: Bearer <token>',
    )
    add('401 when the bearer token is not a valid access token', {
      request: { ...anonymous, authorization: 'Bearer not-a-jwt' },
      status: 401,
      body: apiError('UNAUTHORIZED', 'Invalid access token'),
    })
    add('401 without a bearer token', {
      request: anonymous,
      status: 401,
      body: missingToken,
      breaks: profile.bearer,
    })
    if (post) {
      add('401 before 400: no token and a body its schema refuses', {
        request: { ...anonymous, body: refusedBody },
        status: 401,
        body: missingToken,
        breaks: [...new Set([...profile.bearer, ...profile.closedBody])],
      })
    }
    if (profile.dryRun) {
      add('401 before 400: no token and dryRun neither true nor false', {
        request: { ...anonymous, url: badDryRun },
        status: 401,
        body: missingToken,
        breaks: ['published', 'merged'],
      })
    }
  }
  if (profile.lacksRole !== undefined && post) {
    add('403 before 400: a caller without the role and a body its schema refuses', {
      request: {
        ...success,
        as: profile.lacksRole,
        url: profile.dryRun ? badDryRun : success.url,
        body: refusedBody,
      },
      status: 403,
      body: apiError('FORBIDDEN', 'This operation requires the admin role'),
      breaks: ['published', 'merged'],
    })
  }
  if (profile.dryRun) {
    add('400 when dryRun is neither true nor false', {
      request: { ...success, url: badDryRun },
      status: 400,
      body: apiError('BAD_REQUEST', 'Validation failed', ['dryRun must be one of: true, false']),
      breaks: ['published', 'merged'],
    })
  }
  if (post) {
    const { body: _body, ...bodiless } = success
    add('400 when the body is malformed JSON', {
      request: {
        ...bodiless,
        rawBody: '{"unfinished": ',
        headers: { 'content-type': 'application/json' },
      },
      status: 400,
      body: apiError('BAD_REQUEST', 'Malformed JSON in request body', ['body must be valid JSON']),
      skip: 'Prism parses the body first and answers 400 invalid_json itself, so the sandbox is never reached',
    })
    add('400 when the body is not a JSON object', {
      request: { ...bodiless, body: ['not', 'an', 'object'] },
      status: 400,
      body: apiError('BAD_REQUEST', 'Validation failed', ['body must be an object']),
      breaks: ['published', 'merged'],
    })
    add('413 when the body is over 100 kB', {
      request: { ...bodiless, body: { padding: 'x'.repeat(OVERSIZED) } },
      status: 413,
      body: apiError('PAYLOAD_TOO_LARGE', 'Request body is larger than 102400 bytes'),
      breaks: profile.closedBody,
    })
    add('415 when the body is not JSON', {
      request: { ...bodiless, rawBody: 'plain text', headers: { 'content-type': 'text/plain' } },
      status: 415,
      body: apiError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported media type "text/plain": send application/json',
      ),
      breaks: ['published', 'merged'],
    })
  }
  for (const [status, code] of GATEWAY_ANSWERS) {
    add(`${status} when Prefer asks for a gateway's answer`, {
      request: { ...success, headers: { ...success.headers, prefer: `code=${status}` } },
      status,
      body: apiError(code, `Answered ${status} as the Prefer header asked`),
    })
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
