/**
 * @module
 * Matches a method and path against path templates split into segments up front, and the
 * method rules every runtime shares: 405 with `Allow`, `OPTIONS`, `HEAD` like `GET`.
 */
import { badRequest, SandboxError } from './errors.ts'
import { noContent, type SandboxResponse } from './http.ts'

export interface Route<T> {
  method: string
  segments: readonly string[]
  /** Indexes of `{param}` segments and their names. */
  params: readonly (readonly [number, string])[]
  value: T
}

export interface RouteMatch<T> {
  value: T
  params: Record<string, string>
}

/** Params are raw (still percent-encoded). */
export interface Router<T> {
  (method: string, path: string): RouteMatch<T> | undefined
  /** Checks `path` against the one route of `value`, for a caller that knows it (msw). */
  only(value: T, method: string, path: string): RouteMatch<T> | undefined
}

/** A path's segments; a trailing slash is optional. */
export function pathParts(path: string): string[] {
  const parts = path.split('/').slice(1)
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop()
  return parts
}

function test<T>(route: Route<T>, method: string, parts: string[]): RouteMatch<T> | undefined {
  if (route.method !== method || route.segments.length !== parts.length) return undefined
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i]!
    if (segment.startsWith('{') ? parts[i] === '' : segment !== parts[i]) return undefined
  }
  const params: Record<string, string> = {}
  for (const [index, name] of route.params) params[name] = parts[index]!
  return { value: route.value, params }
}

export function createRouter<T>(
  entries: readonly { method: string; path: string; value: T }[],
): Router<T> {
  const byLength = new Map<number, Route<T>[]>()
  const byValue = new Map<T, Route<T>>()
  for (const { method, path, value } of entries) {
    // A template's trailing slash is as optional as a request's.
    const segments = pathParts(path)
    const params: (readonly [number, string])[] = []
    segments.forEach((segment, index) => {
      const match = /^\{(\w+)\}$/.exec(segment)
      if (match) params.push([index, match[1]!])
    })
    const route: Route<T> = { method, segments, params, value }
    const list = byLength.get(segments.length) ?? []
    list.push(route)
    byLength.set(segments.length, list)
    byValue.set(value, route)
  }

  const match = (method: string, path: string): RouteMatch<T> | undefined => {
    const parts = pathParts(path)
    for (const route of byLength.get(parts.length) ?? []) {
      const found = test(route, method, parts)
      if (found) return found
    }
    return undefined
  }
  const only = (value: T, method: string, path: string): RouteMatch<T> | undefined => {
    const route = byValue.get(value)
    return route && test(route, method, pathParts(path))
  }
  return Object.assign(match, { only })
}

/** Decodes path parameters; a 400 names one that is not valid. */
export function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(value)
    } catch {
      throw badRequest('Validation failed', [`${name} is not a valid URL path segment`])
    }
  }
  return decoded
}

/** The path's methods, `HEAD` with `GET`, and `OPTIONS`. */
function allowHeader(methods: readonly string[]): string {
  const all = new Set(methods)
  if (all.has('GET')) all.add('HEAD')
  all.add('OPTIONS')
  return [...all].join(', ')
}

/** On a path of `allowed` methods only: 204 with `Allow` for `OPTIONS`, else a 405 with it. */
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

/** A `HEAD` answer: the `GET` answer's status, headers and length, no body. */
export function withoutBody(response: SandboxResponse): SandboxResponse {
  if (response.body === undefined) return response
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body)
  return {
    ...response,
    headers: { ...response.headers, 'content-length': String(encoder.encode(text).length) },
    body: undefined,
  }
}
