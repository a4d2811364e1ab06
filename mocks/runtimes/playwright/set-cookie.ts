/**
 * @module
 * Turns a `Set-Cookie` header value into the cookie shape Playwright's
 * `context.addCookies` takes.
 */
import type { BrowserContext } from '@playwright/test'

export type PlaywrightCookie = Parameters<BrowserContext['addCookies']>[0][number]

const SAME_SITE: Record<string, PlaywrightCookie['sameSite']> = {
  strict: 'Strict',
  lax: 'Lax',
  none: 'None',
}

/** The cookie a `Set-Cookie` value sets for a response to `requestUrl`, or `undefined`. */
export function parseSetCookie(header: string, requestUrl: string): PlaywrightCookie | undefined {
  const [pair = '', ...attributes] = header.split(';')
  const eq = pair.indexOf('=')
  if (eq <= 0) return undefined
  const url = new URL(requestUrl)
  const cookie: PlaywrightCookie = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    domain: url.hostname,
    path: defaultPath(url.pathname),
    secure: false,
    httpOnly: false,
  }
  for (const attribute of attributes) {
    const [rawName = '', ...rest] = attribute.split('=')
    const name = rawName.trim().toLowerCase()
    const value = rest.join('=').trim()
    if (name === 'path' && value.startsWith('/')) cookie.path = value
    else if (name === 'domain' && value) cookie.domain = value.startsWith('.') ? value : `.${value}`
    else if (name === 'httponly') cookie.httpOnly = true
    else if (name === 'secure') cookie.secure = true
    else if (name === 'samesite') {
      const sameSite = SAME_SITE[value.toLowerCase()]
      if (sameSite) cookie.sameSite = sameSite
    } else if (name === 'max-age' && /^-?\d+$/.test(value)) {
      cookie.expires = Math.floor(Date.now() / 1000) + Number(value)
    } else if (name === 'expires' && cookie.expires === undefined) {
      const time = Date.parse(value)
      if (!Number.isNaN(time)) cookie.expires = Math.floor(time / 1000)
    }
  }
  return cookie
}

/** RFC 6265 default-path: the request path up to, not including, its last `/`. */
function defaultPath(pathname: string): string {
  const last = pathname.lastIndexOf('/')
  return last <= 0 ? '/' : pathname.slice(0, last)
}
