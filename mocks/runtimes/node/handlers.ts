/**
 * @module
 * The msw handlers for Node (`setupServer`): a Fetch `Request` in, a plain sandbox request to
 * the sandbox, its answer back as a Fetch `Response`, with a browser's cookie jar between.
 */
import type { HttpHandler } from 'msw'
import type { CookieJar } from 'tough-cookie'
import {
  createSandboxRoutes,
  joinCookies,
  type RouteOptions,
} from '../../adapters/sandbox-routes.ts'
import type { Sandbox } from '../../sandbox.ts'

export interface HandlerOptions extends RouteOptions {
  /**
   * Keeps every answer's `Set-Cookie` and sends the cookies back on later requests to that
   * host, as a browser does, unless a request says `credentials: 'omit'`.
   */
  cookieJar?: CookieJar
}

/**
 * Creates the msw request handlers of every operation and of the control API.
 *
 * @example
 * const sandbox = createSandbox()
 * const server = setupServer(...createHandlers(sandbox, { cookieJar: new CookieJar() }))
 */
export function createHandlers(sandbox: Sandbox, options: HandlerOptions = {}): HttpHandler[] {
  const { cookieJar } = options
  return createSandboxRoutes(
    sandbox,
    async ({ request, sandboxRequest, matched }) => {
      const jar = request.credentials === 'omit' ? undefined : cookieJar
      if (jar === undefined) return sandbox.handle(sandboxRequest, matched)
      // The request's own `Cookie` header wins over the jar on a name clash.
      const { header, cookies } = joinCookies(
        sandboxRequest.headers.cookie,
        jar.getCookieStringSync(request.url),
      )
      const headers =
        header === undefined
          ? sandboxRequest.headers
          : { ...sandboxRequest.headers, cookie: header }
      const answer = await sandbox.handle({ ...sandboxRequest, headers, cookies }, matched)
      for (const setCookie of answer.setCookie) {
        jar.setCookieSync(setCookie, request.url, { ignoreError: true })
      }
      return answer
    },
    options,
  )
}
