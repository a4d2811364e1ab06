/**
 * @module
 * The msw handler set for Node (`setupServer`), generated from the operation table.
 * Each handler turns a Fetch `Request` into a plain sandbox request and the plain
 * answer back into a Fetch `Response`; the sandbox does the rest.
 */
import type { HttpHandler } from 'msw'
import { createSandboxRoutes, type RouteOptions } from '../adapters/sandbox-routes.ts'
import type { SandboxResponse } from '../core/http.ts'
import type { Sandbox } from '../core/sandbox.ts'

export type HandlerOptions = RouteOptions

/**
 * Converts a plain sandbox answer to a Fetch `Response`, keeping every `Set-Cookie`
 * apart. The browser worker passes msw's `HttpResponse`, whose cookies msw stores.
 */
export function toFetchResponse(
  answer: SandboxResponse,
  ResponseClass: new (body: string | null, init: ResponseInit) => Response = Response,
): Response {
  // msw makes the request fail with a network error (`HttpResponse.error()`).
  if (answer.networkError) return Response.error()
  const headers = new Headers(answer.headers)
  for (const cookie of answer.setCookie) headers.append('set-cookie', cookie)
  const text =
    answer.body === undefined
      ? null
      : typeof answer.body === 'string'
        ? answer.body
        : JSON.stringify(answer.body)
  return new ResponseClass(text, { status: answer.status, headers })
}

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
    async ({ sandboxRequest }) => toFetchResponse(await sandbox.handle(sandboxRequest)),
    options,
  )
}
