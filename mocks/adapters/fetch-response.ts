/**
 * @module
 * The sandbox's plain answer as a Fetch `Response`, what every msw adapter returns to msw.
 */
import type { SandboxResponse } from '../core/http.ts'

/** Keeps every `Set-Cookie` apart. The worker passes msw's `HttpResponse`, whose cookies msw stores. */
export function toFetchResponse(
  answer: SandboxResponse,
  ResponseClass: new (body: string | null, init: ResponseInit) => Response = Response,
): Response {
  // msw makes the request fail with a network error (`HttpResponse.error()`).
  if (answer.networkError) return Response.error()
  const headers = new Headers(answer.headers)
  for (const cookie of answer.setCookie) headers.append('set-cookie', cookie)
  const { body } = answer
  const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body)
  return new ResponseClass(text, { status: answer.status, headers })
}
