/**
 * @module
 * The Playwright fixture's network: every request of the browser context goes through
 * `context.route()` to msw's `getResponse` over the sandbox handlers and a test's overrides,
 * with only what msw 2 and 3 both export (`@msw/playwright` accepts msw 2 only).
 */
import type { BrowserContext, Request as PlaywrightRequest, Route } from '@playwright/test'
import { type AnyHandler, getResponse, isCommonAssetRequest, RequestHandler } from 'msw'
import { printable } from '../../core/index.ts'

/** `network` of the fixture: override the sandbox's handlers for one test. */
export interface SandboxNetwork {
  /** Puts `handlers` before the current ones, until the test ends or `resetHandlers()`. */
  use(...handlers: AnyHandler[]): void
  /** Back to the sandbox handlers (or to `handlers`, if given). */
  resetHandlers(...handlers: AnyHandler[]): void
  /** The handlers in the order they are tried. */
  listHandlers(): readonly AnyHandler[]
}

/** The route's identity: `unroute()` with this object removes this route and no test's own. */
const MATCH_ALL = /.+/

function toFetchRequest(request: PlaywrightRequest, headers: Record<string, string>): Request {
  const method = request.method()
  const body = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer()
  return new Request(request.url(), { method, headers, body: body && new Uint8Array(body) })
}

async function fulfil(route: Route, response: Response): Promise<void> {
  // `Response.error()`, e.g. a fault rule's network error: the request fails.
  if (response.type === 'error' || response.status === 0) return route.abort('failed')
  const body = Buffer.from(await response.arrayBuffer())
  const headers = Object.fromEntries(response.headers)
  await route.fulfill({ status: response.status, headers, body })
}

/** Ignores Playwright's "route is already handled" after a navigation cut a request short. */
async function safely(action: () => Promise<void>): Promise<void> {
  try {
    await action()
  } catch (error) {
    if (error instanceof Error && /already handled/i.test(error.message)) return
    throw error
  }
}

/** Routes every request of `context` through `initialHandlers` and later overrides. */
export async function enableSandboxNetwork(
  context: BrowserContext,
  initialHandlers: readonly AnyHandler[],
  onUnhandledRequest: 'bypass' | 'warn' | 'error',
): Promise<{ network: SandboxNetwork; disable(): Promise<void> }> {
  let base = [...initialHandlers]
  let overrides: AnyHandler[] = []
  const network: SandboxNetwork = {
    use: (...handlers) => {
      overrides = [...handlers, ...overrides]
    },
    resetHandlers: (...handlers) => {
      overrides = []
      if (handlers.length > 0) base = handlers
    },
    listHandlers: () => [...overrides, ...base],
  }

  await context.route(MATCH_ALL, (route, request) =>
    safely(async () => {
      const fetchRequest = toFetchRequest(request, await request.allHeaders())
      if (isCommonAssetRequest(fetchRequest)) return route.fallback()
      const handlers = network
        .listHandlers()
        .filter((handler): handler is RequestHandler => handler instanceof RequestHandler)
      const referer = request.headers().referer
      const response = await getResponse(handlers, fetchRequest, {
        quiet: true,
        ...(referer ? { baseUrl: new URL(referer).origin } : {}),
      })
      if (response) return fulfil(route, response)
      if (onUnhandledRequest === 'bypass') return route.fallback()
      const message = `[sandbox] No handler answers ${printable(request.method())} ${printable(request.url())}`
      if (onUnhandledRequest === 'warn') {
        console.warn(message)
        return route.fallback()
      }
      console.error(message)
      return route.abort('failed')
    }),
  )
  return { network, disable: () => context.unroute(MATCH_ALL) }
}
