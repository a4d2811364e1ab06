/**
 * @module
 * CORS with credentials: allowed origins reflected, preflights answered, and `Retry-After`
 * exposed, so an app can back off from a gateway fault's 429 or 503.
 */
import type { IncomingMessage } from 'node:http'
import cors from 'cors'
import type { RequestHandler } from 'express'
import { errorResponse, SandboxError } from '../mocks/core/errors.ts'
import { createOriginMatcher } from '../mocks/core/origins.ts'
import { writeAnswer } from './handler.ts'
import { DEFAULT_CORS_ORIGINS } from './options.ts'

function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
}

function refusedOrigin(origin: string): SandboxError {
  return new SandboxError(403, `Cross-origin requests from ${origin} are not allowed`, [
    `allow the origin with --cors-origin ${origin} (or SANDBOX_CORS_ORIGIN, or the corsOrigins option)`,
  ])
}

/** The CORS middleware: requests without `Origin` (curl, server code) skip the `cors` package. */
export function createCorsMiddleware(
  origins: readonly string[] = DEFAULT_CORS_ORIGINS,
): RequestHandler {
  const allowed = createOriginMatcher(origins)
  const middleware = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed(origin)),
    credentials: true,
    exposedHeaders: ['Retry-After'],
    maxAge: 600,
  })
  return (req, res, next) => {
    const origin = req.headers.origin
    if (origin === undefined) {
      next()
      return
    }
    if (isPreflight(req) && !allowed(origin)) {
      writeAnswer(res, errorResponse(refusedOrigin(origin)))
      return
    }
    middleware(req, res, next)
  }
}
