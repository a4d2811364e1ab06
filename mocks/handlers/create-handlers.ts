/**
 * @module
 * The msw handler set for Node (`setupServer`), generated from the operation table.
 * Each handler turns a Fetch `Request` into a plain sandbox request and the plain
 * answer back into a Fetch `Response`; the sandbox does the rest.
 */
import type { HttpHandler } from 'msw'
import { toFetchResponse } from '../adapters/fetch-response.ts'
import { createSandboxRoutes, type RouteOptions } from '../adapters/sandbox-routes.ts'
import type { Sandbox } from '../core/sandbox-types.ts'

export type HandlerOptions = RouteOptions

/**
 * Creates the msw request handlers of every operation and of the control API.
 *
 * @example
 * const sandbox = createSandbox()
 * const server = setupServer(...createHandlers(sandbox))
 */
export function createHandlers(sandbox: Sandbox, options: HandlerOptions = {}): HttpHandler[] {
  return createSandboxRoutes(
    sandbox,
    async ({ sandboxRequest, matched }) =>
      toFetchResponse(await sandbox.handle(sandboxRequest, matched)),
    options,
  )
}
