/**
 * @module
 * CORS with credentials for local front-ends: allowed origins are reflected,
 * preflights are answered, and no response header is exposed to scripts beyond
 * the CORS-safelisted ones.
 */
import cors from 'cors'
import type { RequestHandler } from 'express'
import { DEFAULT_CORS_ORIGINS } from './options.ts'

/** A predicate for `origins`: exact origins, `*` wildcards inside one, or `*` for any. */
export function createOriginMatcher(origins: readonly string[]): (origin: string) => boolean {
  if (origins.includes('*')) return () => true
  const exact = new Set(origins.filter((origin) => !origin.includes('*')))
  const patterns = origins
    .filter((origin) => origin.includes('*'))
    .map(
      (origin) =>
        new RegExp(
          `^${origin
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*')}$`,
          'i',
        ),
    )
  return (origin) => exact.has(origin) || patterns.some((pattern) => pattern.test(origin))
}

/**
 * The CORS middleware. Requests without an `Origin` header (curl, server-side code)
 * skip it; everything else goes through the `cors` package.
 */
export function createCorsMiddleware(
  origins: readonly string[] = DEFAULT_CORS_ORIGINS,
): RequestHandler {
  const allowed = createOriginMatcher(origins)
  const middleware = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed(origin)),
    credentials: true,
    maxAge: 600,
  })
  return (req, res, next) => {
    if (req.headers.origin === undefined) {
      next()
      return
    }
    middleware(req, res, next)
  }
}
