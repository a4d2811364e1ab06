/**
 * @module
 * The sandbox handlers as the browser worker needs them. Browsers keep `Cookie`
 * out of scripts' reach, so request cookies come from msw (`document.cookie` and
 * its own cookie jar) and from the `x-sandbox-cookie` header; responses go out as
 * msw's `HttpResponse`, the one kind whose `Set-Cookie` msw stores for later
 * requests (an HttpOnly cookie cannot go to `document.cookie`).
 */
import { type HttpHandler, HttpResponse } from 'msw'
import { toFetchResponse } from '../../adapters/fetch-response.ts'
import {
  createSandboxRoutes,
  joinCookies,
  type RouteOptions,
} from '../../adapters/sandbox-routes.ts'
import type { SandboxRequest, SandboxResponse } from '../../core/http.ts'
import { LOCAL_ORIGINS } from '../../core/origins.ts'
import type { Sandbox, SandboxOptions } from '../../core/sandbox.ts'

/**
 * Read as the request's `Cookie` header, which scripts cannot set. Its cookies win
 * over the browser's; with `credentials: 'omit'` they are the only ones.
 */
export const COOKIE_HEADER_OVERRIDE = 'x-sandbox-cookie'

export interface WorkerHandlerOptions extends RouteOptions {
  /** Called after each answer, before it goes back to the page. */
  onAnswer?(request: SandboxRequest, answer: SandboxResponse): void | Promise<void>
}

/**
 * The options of a page's sandbox, with the page's own origin among `controlOrigins`: a
 * Service Worker answers the pages of its origin only, so that is the `Origin` any control
 * call it sees can carry, whatever origin `baseUrl` names.
 *
 * @example
 * const sandbox = createSandbox(withPageOrigin({ scenario: 'empty' }))
 */
export function withPageOrigin<T extends SandboxOptions>(options: T): T {
  const page = globalThis.location?.origin
  if (page === undefined || page === 'null') return options
  return { ...options, controlOrigins: [...(options.controlOrigins ?? LOCAL_ORIGINS), page] }
}

/**
 * Creates the msw handlers of every operation and of the control API for `setupWorker`.
 *
 * @example
 * const worker = setupWorker(...createWorkerHandlers(createSandbox()))
 * await worker.start()
 */
export function createWorkerHandlers(
  sandbox: Sandbox,
  options: WorkerHandlerOptions = {},
): HttpHandler[] {
  return createSandboxRoutes(
    sandbox,
    async ({ request, cookies, sandboxRequest, matched }) => {
      const { [COOKIE_HEADER_OVERRIDE]: override, ...headers } = sandboxRequest.headers
      const joined = joinCookies(
        override,
        headers.cookie,
        request.credentials === 'omit' ? undefined : cookies,
      )
      const plain: SandboxRequest = {
        ...sandboxRequest,
        headers: joined.header === undefined ? headers : { ...headers, cookie: joined.header },
        cookies: joined.cookies,
      }
      const answer = await sandbox.handle(plain, matched)
      await options.onAnswer?.(plain, answer)
      return toFetchResponse(answer, HttpResponse)
    },
    options,
  )
}
