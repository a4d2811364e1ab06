/**
 * @module
 * Which session a request names, one rule for the core, the control API and the server: the
 * non-empty `x-sandbox-session` header, else the `sandbox_session` cookie, else `default`.
 */
import { badRequest, SandboxError } from './errors.ts'
import { parseCookies, type SandboxResponse } from './http.ts'

export const SESSION_HEADER = 'x-sandbox-session'
export const SESSION_COOKIE = 'sandbox_session'
export const DEFAULT_SESSION = 'default'
export const SESSION_ID = /^[A-Za-z0-9_.:-]{1,64}$/
export const SESSION_ID_RULE = 'must be 1 to 64 letters, digits or . _ : -'

type Headers = Readonly<Record<string, string | undefined>>
type Cookies = Readonly<Record<string, string>>

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id)
}

/** The session id a request names, not yet validated. */
export function sessionIdOf(
  headers: Headers,
  cookies: Cookies = parseCookies(headers.cookie),
): string {
  const header = headers[SESSION_HEADER]
  if (header !== undefined && header !== '') return header
  const cookie = cookies[SESSION_COOKIE]
  return cookie === undefined || cookie === '' ? DEFAULT_SESSION : cookie
}

function checkSessionId(id: string, from: string): string {
  if (isValidSessionId(id)) return id
  throw badRequest('Invalid sandbox session id', [`session id (${from}) ${SESSION_ID_RULE}`])
}

/** The session id a request names (`sessionIdOf`), checked: a 400 `SandboxError` if invalid. */
export const checkNamedSession = (id: string): string =>
  checkSessionId(id, `${SESSION_HEADER} header or ${SESSION_COOKIE} cookie`)

/**
 * The session a request names. Throws a 400 `SandboxError` for an invalid id.
 * @example
 * resolveSession({ 'x-sandbox-session': '', cookie: 'sandbox_session=abc' }) // 'abc'
 */
export const resolveSession = (headers: Headers, cookies?: Cookies): string =>
  checkNamedSession(sessionIdOf(headers, cookies))

/** The 400 for a request naming an invalid session id, else `undefined`. */
export function refuseInvalidSession(id: string): SandboxResponse | undefined {
  try {
    checkNamedSession(id)
    return undefined
  } catch (error) {
    if (error instanceof SandboxError) return error.toResponse()
    throw error
  }
}

/**
 * The session a view of the journal asks for: `?session=`, else the session the request names,
 * else every session (`undefined`). Throws a 400 for an invalid id, an empty `?session=` too.
 */
export function viewedSession(request: {
  headers: Headers
  query: URLSearchParams
  cookies: Cookies
  session: string
}): string | undefined {
  const asked = request.query.get('session')
  if (asked !== null) return checkSessionId(asked, 'the session query parameter')
  return namesSession(request.headers, request.cookies)
    ? checkNamedSession(request.session)
    : undefined
}

/** Whether the request names a session at all (header or cookie present, even empty). */
export function namesSession(
  headers: Headers,
  cookies: Cookies = parseCookies(headers.cookie),
): boolean {
  return headers[SESSION_HEADER] !== undefined || Object.hasOwn(cookies, SESSION_COOKIE)
}
