/**
 * @module
 * The plain request and response every runtime adapts to and from: no Fetch, Express or DOM
 * types, so the core runs anywhere.
 */
import { parseCookie } from 'cookie'

export interface SandboxRequest {
  method: string
  /** Path and query string, without origin: `/bookings/b1/decline?dryRun=true`. */
  url: string
  /** Names in lower case. */
  headers: Readonly<Record<string, string | undefined>>
  body?: string | null | undefined
  /** Set by an adapter that stopped reading a body past the limit: the core answers the 413. */
  bodyTooLarge?: boolean | undefined
  /** Parsed once by the adapter (with its jar's, maybe); else the core parses `Cookie` once. */
  cookies?: Readonly<Record<string, string>> | undefined
}

export interface SandboxResponse {
  status: number
  headers: Record<string, string>
  /** Each `Set-Cookie` value on its own: they must never be joined. */
  setCookie: string[]
  /** JSON-serialisable value, a string for `text/*` responses, `undefined` for 204. */
  body: unknown
  /** Fail like a broken network: the server resets the connection, msw `HttpResponse.error()`. */
  networkError?: true
}

export function jsonResponse(
  status: number,
  body: unknown,
  setCookie: string[] = [],
): SandboxResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    setCookie,
    body,
  }
}

export const noContent = (): SandboxResponse => ({
  status: 204,
  headers: {},
  setCookie: [],
  body: undefined,
})

/** Splits `/a/b?x=1` into its decoded path and its query. */
export function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const mark = url.indexOf('?')
  if (mark === -1) return { path: url, query: new URLSearchParams() }
  return { path: url.slice(0, mark), query: new URLSearchParams(url.slice(mark + 1)) }
}

/** A cookie value as sent, its surrounding double quotes removed, then percent-decoded. */
function decodeCookieValue(value: string): string {
  const unquoted =
    value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
  if (!unquoted.includes('%')) return unquoted
  try {
    return decodeURIComponent(unquoted)
  } catch {
    return unquoted
  }
}

/** A `Cookie` header as an object without prototype (any name is safe); a name's first wins. */
export function parseCookies(header: string | undefined): Record<string, string> {
  if (!header) return Object.create(null) as Record<string, string>
  const cookies = parseCookie(header, { decode: decodeCookieValue })
  delete cookies['']
  return cookies as Record<string, string>
}
