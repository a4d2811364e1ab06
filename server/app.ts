/**
 * @module
 * The standalone server's Express 5 app, and the same as a handler to mount in yours: request
 * logs, CORS with credentials (`Retry-After` exposed, so an app can back off from a 429 or 503),
 * the console's pages, MCP and the sandbox.
 */

import type { IncomingMessage } from 'node:http'
import cors from 'cors'
import express, { type Express, type RequestHandler } from 'express'
import { scenarios } from '../fixtures/scenarios.ts'
import {
  createOriginMatcher,
  errorResponse,
  LOCAL_ORIGINS,
  proposedDocument,
  quickChecksWith,
  SandboxError,
} from '../mocks/core/index.ts'
import { createSandbox, type Sandbox } from '../mocks/sandbox.ts'
import { toScenarioList } from '../mocks/scenarios/scenario-inputs.ts'
import { createConsoleRoutes } from './console/routes.ts'
import { serverRoutes } from './control-routes.ts'
import { createControlEdge } from './exposure.ts'
import { answerUnexpectedError, createSandboxHandler, writeAnswer } from './handler.ts'
import { createMcpRoute, mcpSessionCount } from './mcp-route.ts'
import { createMetrics } from './metrics.ts'
import { type AppOptions, DEFAULT_CORS_ORIGINS } from './options.ts'
import { createRequestLogger } from './request-log.ts'

// Answers of operations of your own are checked with ajv here (loaded only when some come).
quickChecksWith(() => import('../mocks/adapters/quick-check.ts'))

export interface SandboxApp {
  app: Express
  sandbox: Sandbox
}

export interface SandboxMiddlewareOptions extends AppOptions {
  /** Pass requests that are neither an operation nor `/__sandbox` on instead of a 404. */
  fallthrough?: boolean
}

export type SandboxMiddleware = RequestHandler & { sandbox: Sandbox }

function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
}

function refusedOrigin(origin: string): SandboxError {
  return new SandboxError(403, `Cross-origin requests from ${origin} are not allowed`, [
    `allow the origin with --cors-origin ${origin} (or SANDBOX_CORS_ORIGIN, or the corsOrigins option)`,
  ])
}

/** The CORS middleware: requests without `Origin` (curl, server code) skip the `cors` package. */
function createCorsMiddleware(origins: readonly string[] = DEFAULT_CORS_ORIGINS): RequestHandler {
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

/** Whose pages may change state through the control API: the local ones and those named. */
function controlOriginsOf(corsOrigins: readonly string[] = []): string[] {
  return [...new Set([...LOCAL_ORIGINS, ...corsOrigins])]
}

function sandboxOf(options: AppOptions): Sandbox {
  return createSandbox({
    // A chunk of its own, loaded on the first `GET /__sandbox/openapi.json`; operations of your
    // own marked as proposed here, so that a browser bundle (no document there) has none of it.
    openapiDocument: async (operations) => {
      const { default: document } = await import('../spec/merged-document.ts')
      if (!operations.some((operation) => operation.proposed)) return document
      return proposedDocument(document as { paths: Record<string, unknown> }, operations)
    },
    ...options,
    controlOrigins: controlOriginsOf(options.corsOrigins),
    controlRoutes: serverRoutes,
    scenarios: [...Object.values(scenarios), ...toScenarioList(options.scenarios ?? [])],
  })
}

/** One handler, not a router: Express's per-layer matching was a visible share of a request. */
function createSandboxRequestHandler(
  sandbox: Sandbox,
  options: SandboxMiddlewareOptions,
): RequestHandler {
  const logRequest = options.quiet
    ? undefined
    : createRequestLogger(options.log ?? ((line) => process.stdout.write(`${line}\n`)), {
        format: options.logFormat ?? 'text',
        // Coloured on a terminal, unless NO_COLOR is set.
        color: options.log === undefined && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
      })
  const cors = createCorsMiddleware(options.corsOrigins ?? DEFAULT_CORS_ORIGINS)
  const refuseAtControlEdge = createControlEdge(options)
  const handle = createSandboxHandler(sandbox, { fallthrough: options.fallthrough ?? false })
  const metrics = options.metrics === false ? undefined : (options.metrics ?? createMetrics())
  metrics?.observe(sandbox, () => mcpSessionCount(sandbox))
  const answerConsole = createConsoleRoutes(sandbox, {
    controlToken: options.controlToken,
    metrics,
    store: options.store,
  })
  const answerMcp = createMcpRoute(sandbox, {
    controlToken: options.controlToken,
    controlOrigins: controlOriginsOf(options.corsOrigins),
    maxSessions: options.mcpMaxSessions,
    idleTimeoutMs: options.mcpIdleTimeoutMs,
  })
  return (req, res, next) => {
    logRequest?.(req, res)
    cors(req, res, (error?: unknown) => {
      if (error) {
        answerUnexpectedError(error, res)
        return
      }
      if (refuseAtControlEdge(req, res)) return
      if (answerMcp(req, res)) return
      if (answerConsole(req, res)) return
      handle(req, res, next).catch((failure: unknown) => answerUnexpectedError(failure, res))
    })
  }
}

/**
 * The standalone server's app: CORS, request logs and the sandbox, which answers every path.
 *
 * @example
 * const { app, sandbox } = createApp({ scenario: 'empty', quiet: true })
 */
export function createApp(options: AppOptions = {}): SandboxApp {
  const { app, sandbox } = createServerApp(options)
  return { app, sandbox }
}

/** {@link createApp}, and its one handler, which the standalone server calls without Express. */
export function createServerApp(options: AppOptions): SandboxApp & { handler: RequestHandler } {
  const sandbox = sandboxOf(options)
  const handler = createSandboxRequestHandler(sandbox, options)
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.use(handler)
  return { app, sandbox, handler }
}

/**
 * The sandbox as a request handler to mount in your Express app, before any body parser (a body
 * parsed by `express.json()` is accepted too).
 *
 * @example
 * app.use('/api', createSandboxMiddleware({ scenario: 'default' }))
 */
export function createSandboxMiddleware(options: SandboxMiddlewareOptions = {}): SandboxMiddleware {
  const sandbox = sandboxOf(options)
  const middleware = createSandboxRequestHandler(sandbox, options) as SandboxMiddleware
  middleware.sandbox = sandbox
  return middleware
}
