/**
 * @module
 * The sandbox handlers as the Playwright fixture runs them, behind `context.route()`: request
 * cookies arrive in the `Cookie` header, and each `Set-Cookie` of an answer goes into the
 * browser context with `context.addCookies` (a fulfilled route keeps only one).
 */
import type { BrowserContext } from '@playwright/test'
import type { HttpHandler } from 'msw'
import { createSandboxRoutes, type RouteOptions } from '../../adapters/sandbox-routes.ts'
import type { Sandbox } from '../../sandbox.ts'
import { type PlaywrightCookie, parseSetCookie } from './set-cookie.ts'

export interface PageHandlerOptions extends RouteOptions {
  /** The context that receives the answers' cookies. Without it, cookies are only headers. */
  context?: BrowserContext
}

/** Creates the msw handlers of every operation and of the control API for `network.ts`. */
export function createPageHandlers(
  sandbox: Sandbox,
  options: PageHandlerOptions = {},
): HttpHandler[] {
  const { context, ...routeOptions } = options
  return createSandboxRoutes(
    sandbox,
    async ({ request, sandboxRequest, matched }) => {
      const answer = await sandbox.handle(sandboxRequest, matched)
      if (context && answer.setCookie.length > 0) {
        const cookies = answer.setCookie
          .map((header) => parseSetCookie(header, request.url))
          .filter((cookie): cookie is PlaywrightCookie => cookie !== undefined)
        await context.addCookies(cookies)
      }
      return answer
    },
    routeOptions,
  )
}
