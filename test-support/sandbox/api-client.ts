/**
 * @module
 * A tiny client for tests: calls the API the way an app would, with `fetch`,
 * signed in as a persona. Works against any runtime that answers `baseUrl`.
 */

import { type PersonaKey, personas } from '../../fixtures/personas.ts'
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'

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
  const client = createSandboxClient({ baseUrl, personas })
  // An empty session id means none here: the request goes to the default session.
  const sessionOf = (session: string | undefined) => (session ? { session } : {})

  async function call<T = any>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const { session, ...init } = options
    // A persona's token wins over a raw Authorization header.
    if (init.as !== undefined) delete init.authorization
    const reply = await client.request<T>(path, { ...init, ...sessionOf(session) })
    return { status: reply.status, body: reply.body, headers: reply.headers }
  }

  /** An access token for the persona, through `POST /auth/refresh` like an app would get it. */
  function tokenFor(key: PersonaKey, session?: string): Promise<string> {
    return client.accessToken(key, session || undefined)
  }

  /** The records of a collection, through the control API. */
  function collection<T = any>(name: string, session?: string): Promise<T[]> {
    return client.collection<T>(name, session || undefined)
  }

  return { call, tokenFor, collection }
}

export type ApiClient = ReturnType<typeof createApiClient>
