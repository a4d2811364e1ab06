/**
 * @module
 * The msw handler set, generated from the operation table. Each handler turns a
 * Fetch `Request` into a plain sandbox request and the plain answer back into a
 * Fetch `Response`; the sandbox does the rest.
 */
import { type HttpHandler, http } from 'msw'
import type { SandboxResponse } from '../core/http.ts'
import { CONTROL_PREFIX, type Sandbox } from '../core/sandbox.ts'

export interface HandlerOptions {
  /**
   * Origin (and optional path prefix) the API lives at, e.g. `http://localhost:4010`.
   * Default `*`: any origin.
   */
  baseUrl?: string
}

/** Converts a plain sandbox answer to a Fetch `Response`, keeping every `Set-Cookie` apart. */
export function toFetchResponse(answer: SandboxResponse): Response {
  const headers = new Headers(answer.headers)
  for (const cookie of answer.setCookie) headers.append('set-cookie', cookie)
  const text =
    answer.body === undefined
      ? null
      : typeof answer.body === 'string'
        ? answer.body
        : JSON.stringify(answer.body)
  return new Response(text, { status: answer.status, headers })
}

/** Answers a Fetch `Request` with the sandbox. */
export async function handleFetchRequest(
  sandbox: Sandbox,
  request: Request,
  prefixLength = 0,
): Promise<Response> {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  const answer = await sandbox.handle({
    method: request.method,
    url: url.pathname.slice(prefixLength) + url.search,
    headers,
    body: hasBody ? await request.text() : null,
  })
  return toFetchResponse(answer)
}

/**
 * Creates the msw request handlers of every operation and of the control API.
 *
 * @example
 * const sandbox = createSandbox()
 * const server = setupServer(...createHandlers(sandbox))
 */
export function createHandlers(sandbox: Sandbox, options: HandlerOptions = {}): HttpHandler[] {
  const base = (options.baseUrl ?? '*').replace(/\/$/, '')
  const prefixLength = base === '*' ? 0 : new URL(base).pathname.replace(/\/$/, '').length
  const resolver = ({ request }: { request: Request }) =>
    handleFetchRequest(sandbox, request, prefixLength)
  const handlers = sandbox.operations.map((operation) => {
    const path = operation.path.replace(/\{(\w+)\}/g, ':$1')
    const method = operation.method === 'GET' ? http.get : http.post
    return method(`${base}${path}`, resolver)
  })
  handlers.push(http.all(`${base}${CONTROL_PREFIX}`, resolver))
  handlers.push(http.all(`${base}${CONTROL_PREFIX}/*`, resolver))
  return handlers
}
