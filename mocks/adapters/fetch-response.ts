/**
 * @module
 * The sandbox's plain answer as a Fetch `Response`: what every msw adapter (Node, the
 * browser worker, the Playwright fixture) returns to msw.
 */
import type { SandboxResponse } from '../core/http.ts'

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
