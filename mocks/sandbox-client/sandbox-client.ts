/**
 * @module
 * The sandbox's one client, for its tools and tests: `send(request) -> reply` in this process
 * (`sandbox.handle`) or over HTTP (`fetch`), and on top of it a session, sign-in, the control
 * calls, one reply reader and one refusal formatter. No Node API: the devtools run it in a page.
 */
import { parseSetCookie } from 'cookie'
import type { Persona, PersonaKey } from '../../fixtures/personas.ts'
import { SESSION_HEADER } from '../core/index.ts'
import type { Sandbox } from '../sandbox.ts'

export { SESSION_COOKIE, SESSION_HEADER } from '../core/index.ts'

/** What signing in needs of a persona; `idpCode` through the identity provider. */
export type PersonaCredentials = Pick<Persona, 'key' | 'refreshToken'> & { idpCode?: string }

/** A request as every transport here sends it: path with its query, lower-case header names. */
export interface PlainRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export interface SandboxReply<T = unknown> {
  /** `0`: the sandbox broke the connection (a fault rule's `networkError`). */
  status: number
  headers: Headers
  text: string
  /** The JSON body, the text itself when it is not JSON, `undefined` when empty. */
  body: T
}

/** How a request reaches a sandbox. */
export type Transport = (request: PlainRequest) => Promise<SandboxReply>

/** A reply body: JSON unless its media type says otherwise, else its text; empty: `undefined`. */
export function readBody(text: string, contentType?: string | null): unknown {
  if (text === '') return undefined
  if (contentType && !/json/.test(contentType)) return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The sandbox of this process: what `sandbox.handle` answers, as a reply. */
export const inProcess =
  (sandbox: Pick<Sandbox, 'handle'>): Transport =>
  async (request) => {
    const { status, headers, setCookie, body, networkError } = await sandbox.handle(request)
    const all = new Headers(headers)
    for (const cookie of setCookie) all.append('set-cookie', cookie)
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
    return { status: networkError ? 0 : status, headers: all, text, body }
  }

/** A sandbox at `baseUrl` (`http://127.0.0.1:4010`, or `..` in a page), reached by `fetch`. */
export function overHttp(
  baseUrl: string,
  options: { fetch?: typeof fetch; timeoutMs?: number | undefined } = {},
): Transport {
  let base = baseUrl
  while (base.endsWith('/')) base = base.slice(0, -1)
  return async ({ url, ...init }) => {
    const { timeoutMs } = options
    const signal = timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }
    // Looked up on every call: a page's `fetch` may be replaced after the client is made.
    const response = await (options.fetch ?? fetch)(`${base}${url}`, { ...init, ...signal })
    const text = await response.text()
    const { status, headers } = response
    return { status, headers, text, body: readBody(text, headers.get('content-type')) }
  }
}

/** The one refusal formatter: `404: <reason>`, the reason alone and the body's `details`. */
export function describeRefusal(reply: Pick<SandboxReply, 'status' | 'body'>) {
  if (reply.status === 0) {
    const message = 'The sandbox broke the connection (a network error)'
    return { message, reason: message, details: [] as string[] }
  }
  const body = (reply.body ?? {}) as { message?: unknown; details?: unknown }
  const reason =
    typeof body.message === 'string' ? body.message : `The sandbox answered ${reply.status}`
  const details = Array.isArray(body.details) ? body.details.map(String) : []
  return { message: `${reply.status}: ${reason}`, reason, details }
}

/** A call the sandbox refused: `Failed to ...: 404: <message>`, with the body's `details`. */
export class SandboxRefusal extends Error {
  readonly details: string[]
  constructor(what: string, reply?: Pick<SandboxReply, 'status' | 'body'>, details?: string[]) {
    const described = reply ? describeRefusal(reply) : { message: '', details: [] as string[] }
    super(reply ? `${what}: ${described.message}` : what)
    this.details = details ?? described.details
  }
}

/** The request that exchanges `refreshToken` for an access token (`dryRun`: not rotated). */
function refreshRequest(refreshToken: string): PlainRequest {
  return {
    method: 'POST',
    url: '/auth/refresh?dryRun=true',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }
}

/** Signs `persona` in with its refresh token through `send`: its access token, or a refusal. */
export async function signInWith(
  send: (request: PlainRequest) => Promise<Pick<SandboxReply, 'status' | 'body'>>,
  persona: { key: string; refreshToken: string },
): Promise<string> {
  const answer = await send(refreshRequest(persona.refreshToken))
  const accessToken = (answer.body as { accessToken?: unknown } | undefined)?.accessToken
  if (answer.status !== 200 || typeof accessToken !== 'string') {
    throw new SandboxRefusal(`Failed to sign in as "${persona.key}"`, answer)
  }
  return accessToken
}

export interface SandboxClientOptions {
  /** How it reaches the sandbox; else over HTTP at `baseUrl`. */
  send?: Transport
  /** Where the runtime answers: `http://127.0.0.1:4010`, or the origin msw intercepts. */
  baseUrl?: string
  /** The `fetch` that reaches `baseUrl`, looked up on every call. Default: the global `fetch`. */
  fetch?: typeof fetch
  /** Abort every request over HTTP after this long. Default: no limit. */
  timeoutMs?: number
  /** Session of every request that names none. Default: the `default` session. */
  session?: string | undefined
  /** Personas to sign in from. Default: the runtime's own, from `GET /__sandbox/personas`. */
  personas?: readonly PersonaCredentials[]
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

export interface SignInOptions {
  session?: string | undefined
  /** Through the identity provider first, which sets the `refresh_token` cookie. */
  idp?: boolean
  /** More headers of the sign-in requests (`x-sandbox-client`). */
  headers?: Record<string, string>
}

/** `Body`: the type of a reply's body when a call names none (`unknown`). */
export type SandboxClient<Body = unknown> = ReturnType<typeof createSandboxClient<Body>>

/** The client: `client.request('/payprov/account-status', { as: 'host' })` signs in as `host`. */
export function createSandboxClient<Body = unknown>(options: SandboxClientOptions) {
  const send = options.send ?? overHttp(options.baseUrl ?? '', options)
  const tokens = new Map<string, Promise<string>>()

  const sessionHeaders = (session: string | undefined): Record<string, string> => {
    const id = session ?? options.session
    return id === undefined ? {} : { [SESSION_HEADER]: id }
  }

  async function request<T = Body>(
    path: string,
    init: SandboxClientRequest = {},
  ): Promise<SandboxReply<T>> {
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
    const method = init.method ?? (body === undefined ? 'GET' : 'POST')
    const sent = await send({ method, url: path, headers, ...(body === undefined ? {} : { body }) })
    return sent as SandboxReply<T>
  }

  /** A control call's body, or a {@link SandboxRefusal} saying `Failed to <what>`. */
  async function read<T>(what: string, path: string, init?: SandboxClientRequest): Promise<T> {
    const reply = await request<T>(path, init)
    if (reply.status < 400 && reply.status !== 0) return reply.body
    throw new SandboxRefusal(`Failed to ${what}`, reply)
  }

  /** The personas to sign in as, with their fixed credentials. */
  const personas = <T extends PersonaCredentials = PersonaCredentials>(
    session?: string,
  ): Promise<readonly T[]> =>
    options.personas
      ? Promise.resolve(options.personas as readonly T[])
      : read('list the personas', '/__sandbox/personas', { session })

  /** Signs `persona` (or its key) in, afresh: its access token and refresh token. */
  async function signIn(persona: string | PersonaCredentials, signing: SignInOptions = {}) {
    let credentials = typeof persona === 'string' ? undefined : persona
    if (!credentials) {
      const list = await personas(signing.session)
      credentials = list.find((candidate) => candidate.key === persona)
      if (!credentials) {
        throw new SandboxRefusal(`Failed to sign in as "${persona}": no such persona`, undefined, [
          `persona must be one of: ${list.map((candidate) => candidate.key).join(', ')}`,
        ])
      }
    }
    const headers = { ...signing.headers, ...sessionHeaders(signing.session) }
    const through = (plain: PlainRequest) =>
      send({ ...plain, headers: { ...headers, ...plain.headers } })
    let { refreshToken } = credentials
    if (signing.idp) {
      const code = { body: JSON.stringify({ code: credentials.idpCode }) }
      const completed = await through({ ...refreshRequest(''), url: '/auth/idp/complete', ...code })
      if (completed.status !== 201) {
        throw new SandboxRefusal(`Failed to sign in as "${credentials.key}"`, completed)
      }
      // A page sees no `Set-Cookie`: the browser keeps the cookie, the persona's token is the same.
      const cookie = completed.headers
        .getSetCookie()
        .map((line) => parseSetCookie(line))
        .find((parsed) => parsed.name === 'refresh_token')
      refreshToken = cookie?.value ?? refreshToken
    }
    const accessToken = await signInWith(through, { ...credentials, refreshToken })
    return { accessToken, refreshToken }
  }

  /** An access token of the persona, signed in within `session`; kept for later calls. */
  function accessToken(key: string, session?: string): Promise<string> {
    const cacheKey = `${key}@${session ?? options.session ?? ''}`
    let token = tokens.get(cacheKey)
    if (!token) {
      token = signIn(key, { session }).then((signedIn) => signedIn.accessToken)
      tokens.set(cacheKey, token)
      token.catch(() => tokens.delete(cacheKey))
    }
    return token
  }

  return {
    send,
    request,
    personas,
    signIn,
    accessToken,
    /** `GET /__sandbox/collections/:name` in `session`. */
    collection: <T = Body>(name: string, session?: string) =>
      read<T[]>(`read collection "${name}"`, `/__sandbox/collections/${name}`, { session }),
    /** `POST /__sandbox/reset` in `session`. */
    reset: (session?: string) =>
      read(`reset session "${session ?? options.session ?? 'default'}"`, '/__sandbox/reset', {
        method: 'POST',
        session,
      }),
  }
}

/** An access token of `persona` (or its key) from a sandbox in this process (journaled). */
export const signIn = (
  sandbox: Pick<Sandbox, 'handle' | 'personas'>,
  persona: PersonaKey | PersonaCredentials,
): Promise<string> =>
  createSandboxClient({ send: inProcess(sandbox), personas: sandbox.personas })
    .signIn(persona)
    .then((signedIn) => signedIn.accessToken)
