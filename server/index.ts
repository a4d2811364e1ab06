/**
 * @module
 * The standalone server: the Express app, the middleware to mount in yours, and `startServer`.
 */
export type { SandboxApp, SandboxMiddleware, SandboxMiddlewareOptions } from './app.ts'
export { createApp, createSandboxMiddleware } from './app.ts'
export type { SandboxHandlerOptions } from './handler.ts'
export { createSandboxHandler, writeAnswer } from './handler.ts'
export type { ServerMetrics, StoreMetrics } from './metrics.ts'
export { createMetrics } from './metrics.ts'
export type { AppOptions, ServerOptions } from './options.ts'
export { DEFAULT_CORS_ORIGINS, DEFAULT_HOST, DEFAULT_PORT } from './options.ts'
export type { RunningServer } from './start-server.ts'
export { startServer } from './start-server.ts'
