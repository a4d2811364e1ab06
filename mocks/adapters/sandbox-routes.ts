/**
 * @module
 * What the msw runtimes share: the routes of the sandbox (every operation and `/__sandbox/*`)
 * with the resolver each supplies (they differ in where cookies come from and go), the
 * request read from msw's, and the answer as a Fetch `Response`.
 */
import { type HttpHandler, http } from 'msw'
import type { MatchedOperation } from '../core/index.ts'
import {
  CONTROL_PREFIX,
  parseCookies,
  type SandboxRequest,
  type SandboxResponse,
} from '../core/index.ts'
import type { Sandbox } from '../sandbox.ts'

export interface RouteOptions {
  /** Origin (and optional path prefix) of the API, e.g. `http://localhost:4010`. Default `*`. */
  baseUrl?: string
}

export interface RouteContext {
  request: Request
  /** Cookies msw found for this request: its `Cookie` header, `document.cookie` and msw's jar. */
  cookies: Record<string, string>
  /** The request as the sandbox reads it, with the base path removed and no cookies yet. */
  sandboxRequest: SandboxRequest
  /** The operation whose route msw matched (undefined for `/__sandbox`). */
  matched: MatchedOperation | undefined
}

/**
 * Reads the parts of a Fetch `Request` the sandbox needs, header names in lower case. It gets
 * the `Host` an HTTP request to its URL would carry, which the control API checks `Origin` by.
 */
export async function readSandboxRequest(
  request: Request,
  prefixLength: number,
): Promise<SandboxRequest> {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  headers.host ??= url.host
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  return {
    method: request.method,
    url: url.pathname.slice(prefixLength) + url.search,
    headers,
    body: hasBody ? await request.text() : null,
  }
}

/**
 * One msw handler per operation and two for the control API, all answered by `resolve`, its
 * answer made a `ResponseClass` (the browser worker's is msw's `HttpResponse`).
 */
export function createSandboxRoutes(
  sandbox: Sandbox,
  resolve: (context: RouteContext) => Promise<SandboxResponse>,
  options: RouteOptions = {},
  ResponseClass?: ResponseConstructor,
): HttpHandler[] {
  const base = (options.baseUrl ?? '*').replace(/\/$/, '')
  const prefixLength = base === '*' ? 0 : new URL(base).pathname.replace(/\/$/, '').length
  const resolverOf =
    (matched: MatchedOperation | undefined) =>
    async ({ request, cookies }: { request: Request; cookies: Record<string, string> }) => {
      const sandboxRequest = await readSandboxRequest(request, prefixLength)
      const answer = await resolve({ request, cookies, sandboxRequest, matched })
      return toFetchResponse(answer, ResponseClass)
    }
  // msw has matched the route: the sandbox is told which, so it does not search again.
  const handlers = sandbox.operations.map((operation) => {
    const path = operation.path.replace(/\{(\w+)\}/g, ':$1')
    const method = operation.method.toLowerCase() as 'get' | 'post'
    return http[method](`${base}${path}`, resolverOf({ operation }))
  })
  const control = resolverOf(undefined)
  handlers.push(http.all(`${base}${CONTROL_PREFIX}`, control))
  handlers.push(http.all(`${base}${CONTROL_PREFIX}/*`, control))
  return handlers
}

/**
 * Gathers cookies from `Cookie` header values and cookie objects (a jar, `document.cookie`),
 * earlier sources winning on a name: one `Cookie` header to journal, and the values by name.
 */
export function joinCookies(
  ...sources: ReadonlyArray<string | Readonly<Record<string, string>> | undefined>
): { header: string | undefined; cookies: Record<string, string> } {
  const cookies = Object.create(null) as Record<string, string>
  const parts: string[] = []
  for (const source of sources) {
    if (source === undefined) continue
    const pairs = typeof source === 'string' ? parseCookies(source) : source
    for (const name of Object.keys(pairs)) {
      if (name === '' || Object.hasOwn(cookies, name)) continue
      const value = pairs[name] as string
      cookies[name] = value
      parts.push(`${name}=${encodeURIComponent(value)}`)
    }
  }
  return { header: parts.length === 0 ? undefined : parts.join('; '), cookies }
}

type ResponseConstructor = new (body: string | null, init: ResponseInit) => Response

/** A sandbox answer as a Fetch `Response`, every `Set-Cookie` kept apart. */
export function toFetchResponse(
  answer: SandboxResponse,
  ResponseClass: ResponseConstructor = Response,
): Response {
  // msw makes the request fail with a network error (`HttpResponse.error()`).
  if (answer.networkError) return Response.error()
  const headers = new Headers(answer.headers)
  for (const cookie of answer.setCookie) headers.append('set-cookie', cookie)
  const { body } = answer
  const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body)
  return new ResponseClass(text, { status: answer.status, headers })
}
