/**
 * @module
 * The Express 5 app of the standalone server, and the same thing as a router to
 * mount in a user's own Express dev server.
 */
import express, { type Express, type Router } from 'express'
import { createSandbox, type Sandbox } from '../mocks/core/sandbox.ts'
import { createCorsMiddleware } from './cors.ts'
import { answerUnexpectedError, createSandboxHandler } from './handler.ts'
import { loadMergedDocument } from './openapi.ts'
import { type AppOptions, DEFAULT_CORS_ORIGINS } from './options.ts'
import { createRequestLogger, logToStdout } from './request-log.ts'

export interface SandboxApp {
  app: Express
  sandbox: Sandbox
}

export interface SandboxMiddlewareOptions extends AppOptions {
  /**
   * Pass requests that match neither an operation nor `/__sandbox` on to the next
   * route instead of answering 404. Default `false`.
   */
  fallthrough?: boolean
}

export type SandboxMiddleware = Router & { sandbox: Sandbox }

function sandboxOf(options: AppOptions): Sandbox {
  return createSandbox({ openapiDocument: loadMergedDocument, ...options })
}

function createSandboxRouter(sandbox: Sandbox, options: SandboxMiddlewareOptions): Router {
  const router = express.Router()
  if (!options.quiet) router.use(createRequestLogger(options.log ?? logToStdout))
  router.use(createCorsMiddleware(options.corsOrigins ?? DEFAULT_CORS_ORIGINS))
  router.use(createSandboxHandler(sandbox, { fallthrough: options.fallthrough ?? false }))
  router.use(answerUnexpectedError)
  return router
}

/**
 * Creates the standalone server's app: CORS, request logs and the sandbox, which
 * answers every path (unknown ones with a 404 `ApiErrorResponseDto`).
 *
 * @example
 * const { app, sandbox } = createApp({ scenario: 'empty', quiet: true })
 * app.listen(4010)
 */
export function createApp(options: AppOptions = {}): SandboxApp {
  const sandbox = sandboxOf(options)
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.use(createSandboxRouter(sandbox, options))
  return { app, sandbox }
}

/**
 * Creates the sandbox as a router to mount under a prefix of your own Express app.
 * Mount it before any body parser: it reads the raw body itself (a body already
 * parsed by `express.json()` is accepted too).
 *
 * @example
 * const app = express()
 * app.use('/api', createSandboxMiddleware({ scenario: 'default' }))
 * app.listen(5173)
 */
export function createSandboxMiddleware(options: SandboxMiddlewareOptions = {}): SandboxMiddleware {
  const sandbox = sandboxOf(options)
  const router = createSandboxRouter(sandbox, options) as SandboxMiddleware
  router.sandbox = sandbox
  return router
}
