/**
 * @module
 * The sandbox handlers of the browser worker, and the `fetch` that sends a test's request
 * through it. Browsers keep `Cookie` out of scripts' reach, so request cookies come from msw
 * (`document.cookie` and its jar) and the `x-sandbox-cookie` header; answers go out as msw's
 * `HttpResponse`, whose `Set-Cookie` msw stores (HttpOnly cookies never reach `document.cookie`).
 */
import { type HttpHandler, HttpResponse } from 'msw'
import type { SetupWorker } from 'msw/browser'
import {
  createSandboxRoutes,
  joinCookies,
  type RouteOptions,
} from '../../adapters/sandbox-routes.ts'
import type { SandboxRequest, SandboxResponse } from '../../core/index.ts'
import { LOCAL_ORIGINS } from '../../core/index.ts'
import type { Sandbox, SandboxOptions } from '../../sandbox.ts'
import { whenControlled } from './controlled.ts'

/** Read as the request's `Cookie` header, which scripts cannot set; its cookies win. */
export const COOKIE_HEADER_OVERRIDE = 'x-sandbox-cookie'

export interface WorkerHandlerOptions extends RouteOptions {
  /** Called after each answer, before it goes back to the page. */
  onAnswer?(request: SandboxRequest, answer: SandboxResponse): void | Promise<void>
}

/** `options` with the page's origin among `controlOrigins`: a worker answers only its own. */
export function withPageOrigin<T extends SandboxOptions>(options: T): T {
  const page = globalThis.location?.origin
  if (page === undefined || page === 'null') return options
  return { ...options, controlOrigins: [...(options.controlOrigins ?? LOCAL_ORIGINS), page] }
}

/**
 * Starts msw's worker and resolves once it controls the page, or the app's first request
 * would escape it. msw 2 reads `onUnhandledRequest`, msw 3 `onUnhandledFrame`: both are given.
 */
export async function startWorker(
  worker: SetupWorker,
  options: { url: string; onUnhandled: 'bypass' | 'warn' | 'error'; quiet: boolean },
): Promise<void> {
  const { url, onUnhandled, quiet } = options
  const unhandled = { onUnhandledRequest: onUnhandled, onUnhandledFrame: onUnhandled }
  await worker.start({ serviceWorker: { url }, ...unhandled, quiet })
  await whenControlled()
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
      return answer
    },
    options,
    // The one kind of answer whose `Set-Cookie` msw stores for later requests.
    HttpResponse,
  )
}

/** `baseUrl`, or the page's origin for none or `*`, without a trailing `/`. */
export function pageBaseUrl(baseUrl: string | undefined): string {
  return (baseUrl === undefined || baseUrl === '*' ? location.origin : baseUrl).replace(/\/$/, '')
}

/** What {@link SandboxWorker.send} gives back. */
export interface SentResponse {
  status: number
  headers: Record<string, string>
  /** Parsed JSON, text, or `undefined` when empty. */
  body: unknown
}

/**
 * `fetch` for tests in the page: the request carries only the cookies of its `Cookie` header
 * (which browsers drop), sent as `x-sandbox-cookie`.
 *
 * @example
 * await workerFetch('/auth/refresh', { method: 'POST', headers: { cookie: 'refresh_token=…' } })
 */
export const workerFetch: typeof fetch = (input, init = {}) => {
  const headers = new Headers(
    init.headers ?? (input instanceof Request ? input.headers : undefined),
  )
  const cookie = headers.get('cookie')
  headers.delete('cookie')
  if (cookie !== null) headers.set(COOKIE_HEADER_OVERRIDE, cookie)
  return fetch(input, { ...init, headers, credentials: 'omit' })
}

/** Sends a plain sandbox request through the worker, at `baseUrl` or the page's origin. */
export async function sendThroughWorker(
  request: SandboxRequest,
  baseUrl?: string,
): Promise<SentResponse> {
  const headers = Object.entries(request.headers).filter(
    (header): header is [string, string] => header[1] !== undefined,
  )
  const response = await workerFetch(pageBaseUrl(baseUrl) + request.url, {
    method: request.method,
    headers,
    body: request.body ?? null,
  })
  const text = await response.text()
  const isJson = /[/+]json\b/.test(response.headers.get('content-type') ?? '')
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text === '' ? undefined : isJson ? JSON.parse(text) : text,
  }
}
