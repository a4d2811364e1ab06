/**
 * @module
 * A `Set-Cookie` header value, parsed by `tough-cookie`, as the cookie Playwright's
 * `context.addCookies` takes.
 */
import type { BrowserContext } from '@playwright/test'
import { Cookie, defaultPath } from 'tough-cookie'

export type PlaywrightCookie = Parameters<BrowserContext['addCookies']>[0][number]

const SAME_SITE: Record<string, PlaywrightCookie['sameSite']> = {
  strict: 'Strict',
  lax: 'Lax',
  none: 'None',
}

/** The cookie a `Set-Cookie` value sets for a response to `requestUrl`, or `undefined`. */
export function parseSetCookie(header: string, requestUrl: string): PlaywrightCookie | undefined {
  const parsed = Cookie.parse(header)
  if (parsed === undefined || parsed.key === '') return undefined
  const url = new URL(requestUrl)
  const cookie: PlaywrightCookie = {
    name: parsed.key,
    value: parsed.value,
    domain: parsed.domain ? `.${parsed.domain}` : url.hostname,
    path: parsed.path?.startsWith('/') ? parsed.path : defaultPath(url.pathname),
    secure: parsed.secure,
    httpOnly: parsed.httpOnly,
  }
  const sameSite = SAME_SITE[parsed.sameSite?.toLowerCase() ?? '']
  if (sameSite) cookie.sameSite = sameSite
  const expires = parsed.expiryTime()
  if (expires !== undefined && Number.isFinite(expires)) cookie.expires = Math.floor(expires / 1000)
  return cookie
}
