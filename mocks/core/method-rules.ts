/**
 * @module
 * HTTP method rules every runtime shares: 405 with `Allow` on a known path, `OPTIONS` lists
 * its methods, `HEAD` is answered like `GET` without a body.
 */
import { SandboxError } from './errors.ts'
import { noContent, type SandboxResponse } from './http.ts'

/** The `Allow` header value: the path's methods, `HEAD` with `GET`, and `OPTIONS`. */
export function allowHeader(methods: readonly string[]): string {
  const all = new Set(methods)
  if (all.has('GET')) all.add('HEAD')
  all.add('OPTIONS')
  return [...all].join(', ')
}

/**
 * The answer for `method` on a path that exists with `allowed` methods only: 204 with
 * `Allow` for `OPTIONS`, a 405 `ApiErrorResponseDto` with `Allow` otherwise.
 */
export function otherMethodResponse(
  method: string,
  path: string,
  allowed: readonly string[],
): SandboxResponse {
  const allow = allowHeader(allowed)
  if (method === 'OPTIONS') return { ...noContent(), headers: { allow } }
  return new SandboxError(
    405,
    `Method ${method} is not allowed on ${path}`,
    [`allowed methods: ${allow}`],
    { allow },
  ).toResponse()
}

const encoder = new TextEncoder()

/** The answer to a `HEAD`: the `GET` answer's status and headers, its length, no body. */
export function withoutBody(response: SandboxResponse): SandboxResponse {
  if (response.body === undefined) return response
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body)
  return {
    ...response,
    headers: { ...response.headers, 'content-length': String(encoder.encode(text).length) },
    body: undefined,
  }
}
