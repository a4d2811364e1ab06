/**
 * @module
 * Which page origins a list allows (exact, `*` inside one, or `*` alone): one rule for the
 * server's CORS and the control API's cross-site check, local origins by default.
 */

/** Any local front-end, whatever its port: what CORS and the control API allow by default. */
export const LOCAL_ORIGINS: readonly string[] = [
  'http://localhost',
  'http://localhost:*',
  'http://127.0.0.1',
  'http://127.0.0.1:*',
  'http://[::1]',
  'http://[::1]:*',
]

/** Whether `origin` is `scheme://host[:port]` only: no user info (`http://a@evil.example`), path... */
export function isSerializedOrigin(origin: string): boolean {
  try {
    return new URL(origin).origin === origin.toLowerCase()
  } catch {
    return false
  }
}

/** A `*` in a pattern: the port after `:`, one host label anywhere else. */
function wildcardPattern(origin: string): RegExp {
  const source = origin
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .reduce((pattern, part) => pattern + (pattern.endsWith(':') ? '\\d{1,5}' : '[a-z0-9-]+') + part)
  return new RegExp(`^${source}$`, 'i')
}

/** @example createOriginMatcher(['http://localhost:*'])('http://localhost:5173') // true */
export function createOriginMatcher(origins: readonly string[]): (origin: string) => boolean {
  if (origins.includes('*')) return () => true
  const exact = new Set(origins.filter((origin) => !origin.includes('*')))
  const patterns = origins.filter((origin) => origin.includes('*')).map(wildcardPattern)
  return (origin) =>
    exact.has(origin) ||
    (isSerializedOrigin(origin) && patterns.some((pattern) => pattern.test(origin)))
}
