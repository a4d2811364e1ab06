/**
 * @module
 * A tiny client for tests: calls the API the way an app would, with `fetch`,
 * signed in as a persona. Works against any runtime that answers `baseUrl`.
 */
import { type PersonaKey, personas } from '../../fixtures/personas.ts'

export interface CallOptions {
  method?: string
  /** JSON body, or a raw string sent as is. */
  body?: unknown
  /** Sign in as this persona (bearer token), or send this raw Authorization header. */
  as?: PersonaKey
  authorization?: string
  headers?: Record<string, string>
  session?: string
}

export interface CallResult<T = any> {
  status: number
  body: T
  headers: Headers
}

export function createApiClient(baseUrl: string) {
  const tokens = new Map<string, string>()

  async function call<T = any>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.session) headers['x-sandbox-session'] = options.session
    if (options.authorization) headers.authorization = options.authorization
    if (options.as) headers.authorization = `Bearer ${await tokenFor(options.as, options.session)}`
    let body: string | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const response = await fetch(new URL(path, baseUrl), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers }
  }

  /** An access token for the persona, through `POST /auth/refresh` like an app would get it. */
  async function tokenFor(key: PersonaKey, session?: string): Promise<string> {
    const cacheKey = `${key}@${session ?? ''}`
    const cached = tokens.get(cacheKey)
    if (cached) return cached
    const persona = personas.find((candidate) => candidate.key === key)!
    const response = await call<{ accessToken: string }>('/auth/refresh?dryRun=true', {
      body: { refreshToken: persona.refreshToken },
      ...(session ? { session } : {}),
    })
    if (response.status !== 200) {
      throw new Error(
        `Failed to sign in as "${key}": ${response.status} ${JSON.stringify(response.body)}`,
      )
    }
    tokens.set(cacheKey, response.body.accessToken)
    return response.body.accessToken
  }

  /** The records of a collection, through the control API. */
  async function collection<T = any>(name: string, session?: string): Promise<T[]> {
    const response = await call<T[]>(`/__sandbox/collections/${name}`, session ? { session } : {})
    if (response.status !== 200)
      throw new Error(`Failed to read collection "${name}": ${response.status}`)
    return response.body
  }

  return { call, tokenFor, collection }
}

export type ApiClient = ReturnType<typeof createApiClient>
