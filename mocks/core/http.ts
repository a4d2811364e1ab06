/**
 * @module
 * The plain request and response every runtime adapts to and from. No Fetch,
 * Express or DOM types here, so the core runs anywhere.
 */

export interface SandboxRequest {
  method: string
  /** Path and query string, without origin: `/bookings/b1/decline?dryRun=true`. */
  url: string
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>
  /** The raw body text, if any. */
  body?: string | null | undefined
  /**
   * Set by an adapter that stopped reading the body once it passed the size limit,
   * so the sandbox answers (and journals) the 413 like any other refusal.
   */
  bodyTooLarge?: boolean | undefined
}

export interface SandboxResponse {
  status: number
  headers: Record<string, string>
  /** Each `Set-Cookie` value on its own: they must never be joined. */
  setCookie: string[]
  /** JSON-serialisable value, a string for `text/*` responses, `undefined` for 204. */
  body: unknown
  /**
   * Fail like a broken network instead of answering: the server resets the
   * connection, msw answers `HttpResponse.error()`.
   */
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

/** Splits `/a/b?x=1` into its decoded path and its query. */
export function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const mark = url.indexOf('?')
  if (mark === -1) return { path: url, query: new URLSearchParams() }
  return { path: url.slice(0, mark), query: new URLSearchParams(url.slice(mark + 1)) }
}

/** Reads a cookie header into a plain object; the first value of a name wins. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {}
  if (!header) return cookies
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    const name = part.slice(0, eq).trim()
    if (!name || Object.hasOwn(cookies, name)) continue
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    try {
      cookies[name] = decodeURIComponent(value)
    } catch {
      cookies[name] = value
    }
  }
  return cookies
}
