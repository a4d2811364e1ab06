/**
 * @module
 * The sandbox's own client for tests and tools: calls any runtime that answers a base URL
 * with `fetch`, in a session, signed in as a persona. No Node API.
 */
import type { SandboxRequest } from '../core/index.ts'
import { SESSION_HEADER } from '../core/index.ts'

export { SESSION_COOKIE, SESSION_HEADER } from '../core/index.ts'

import { type PersonaCredentials, parseBody, signInWith } from './sign-in.ts'

export {
  type PersonaCredentials,
  type PlainRequest,
  refreshRequest,
  signIn,
  signInWith,
} from './sign-in.ts'

export interface SandboxClientOptions {
  /** Where the runtime answers: `http://127.0.0.1:4010`, or the origin msw intercepts. */
  baseUrl: string
  /** Session of every request that names none. Default: the `default` session. */
  session?: string
  /** The `fetch` that reaches it, looked up on every call. Default: the global `fetch`. */
  fetch?: typeof fetch
  /** Personas to sign in from. Default: the runtime's own, from `GET /__sandbox/personas`. */
  personas?: readonly PersonaCredentials[]
  /** Abort every request after this long. Default: no limit. */
  timeoutMs?: number
}

export interface SandboxClientRequest {
  method?: string
  /** A JSON value (sent as `application/json`) or a raw string sent as is. */
  body?: unknown
  headers?: Record<string, string>
  /** This request's session, over the client's. */
  session?: string | undefined
  /** Sign in as this persona: a bearer token from its refresh token. */
  as?: string
  /** A raw `Authorization` header, over `as`. */
  authorization?: string
}

export interface SandboxReply<T = unknown> {
  status: number
  headers: Headers
  text: string
  /** The JSON body, the text itself when it is not JSON, `undefined` when empty. */
  body: T
}

export type SandboxClient = ReturnType<typeof createSandboxClient>

/** The client: `client.request('/payprov/account-status', { as: 'host' })` signs in as `host`. */
export function createSandboxClient(options: SandboxClientOptions) {
  const tokens = new Map<string, Promise<string>>()
  let known: Promise<readonly PersonaCredentials[]> | undefined

  const sessionHeaders = (session: string | undefined): Record<string, string> => {
    const id = session ?? options.session
    return id === undefined ? {} : { [SESSION_HEADER]: id }
  }

  /** Sends a prepared request as is (method, headers, raw body). */
  async function send<T = unknown>(
    path: string,
    init: Pick<SandboxRequest, 'method'> & { headers?: Record<string, string>; body?: string },
  ): Promise<SandboxReply<T>> {
    const response = await (options.fetch ?? globalThis.fetch)(new URL(path, options.baseUrl), {
      method: init.method,
      headers: init.headers ?? {},
      ...(init.body === undefined ? {} : { body: init.body }),
      ...(options.timeoutMs === undefined
        ? {}
        : { signal: AbortSignal.timeout(options.timeoutMs) }),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, body: parseBody(text) as T }
  }

  async function request<T = unknown>(path: string, init: SandboxClientRequest = {}) {
    const headers: Record<string, string> = { ...init.headers, ...sessionHeaders(init.session) }
    if (init.as !== undefined) {
      headers.authorization = `Bearer ${await accessToken(init.as, init.session)}`
    }
    if (init.authorization !== undefined) headers.authorization = init.authorization
    let body: string | undefined
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
      headers['content-type'] ??= 'application/json'
    }
    return send<T>(path, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
    })
  }

  function personas(): Promise<readonly PersonaCredentials[]> {
    if (options.personas) return Promise.resolve(options.personas)
    known ??= send('/__sandbox/personas', { method: 'GET' }).then((reply) => {
      if (reply.status !== 200 || !Array.isArray(reply.body)) {
        known = undefined
        throw new Error(`Failed to list the sandbox's personas: ${reply.status} ${reply.text}`)
      }
      return reply.body as PersonaCredentials[]
    })
    return known
  }

  /** An access token of the persona, signed in within `session`; kept for later calls. */
  function accessToken(key: string, session?: string): Promise<string> {
    const cacheKey = `${key}@${session ?? options.session ?? ''}`
    let token = tokens.get(cacheKey)
    if (!token) {
      token = personas().then((list) => {
        const persona = list.find((candidate) => candidate.key === key)
        if (!persona) throw new Error(`Failed to sign in as "${key}": no such persona`)
        return signInWith(
          (refresh) =>
            send(refresh.url, {
              ...refresh,
              headers: { ...sessionHeaders(session), ...refresh.headers },
            }),
          persona,
        )
      })
      tokens.set(cacheKey, token)
      token.catch(() => tokens.delete(cacheKey))
    }
    return token
  }

  /** `GET /__sandbox/collections/:name` in `session`. */
  async function collection<T = unknown>(name: string, session?: string): Promise<T[]> {
    const reply = await request<T[]>(`/__sandbox/collections/${name}`, { session })
    if (reply.status !== 200 || !Array.isArray(reply.body)) {
      throw new Error(`Failed to read collection "${name}": ${reply.status} ${reply.text}`)
    }
    return reply.body
  }

  /** `POST /__sandbox/reset` in `session`. */
  async function reset(session?: string): Promise<void> {
    const reply = await send('/__sandbox/reset', {
      method: 'POST',
      headers: sessionHeaders(session),
    })
    if (reply.status !== 200) {
      throw new Error(
        `Failed to reset sandbox session "${session ?? options.session ?? 'default'}": ${reply.status} ${reply.text}`,
      )
    }
  }

  return { request, send, accessToken, collection, reset }
}
