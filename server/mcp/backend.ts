/**
 * @module
 * How the MCP tools reach a sandbox: in this process (`sandbox.handle`) or over HTTP (`--url`),
 * sending what the app or the dashboard would, for the same answers, refusals and journal.
 */
import type { SandboxResponse } from '../../mocks/core/index.ts'
import { isControlPath } from '../../mocks/core/index.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import { withoutTrailingSlashes } from '../exposure.ts'

/** A request as a tool sends it: path with its query, lower-case header names. */
export interface BackendRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  /** Sent as JSON. */
  body?: unknown
}

/** What the sandbox answered, as its core gives it over any transport. */
export type BackendAnswer = SandboxResponse

export interface SandboxBackend {
  /** The sandbox server's URL, for a browser or a test runner to be pointed at. */
  readonly url: string
  /** Sends one request; a control call carries the control token, if there is one. */
  send(request: BackendRequest): Promise<BackendAnswer>
}

function withControlToken(
  request: BackendRequest,
  controlToken: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers }
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  if (controlToken !== undefined && isControlPath(request.url.split('?')[0]!)) {
    headers.authorization = `Bearer ${controlToken}`
  }
  return headers
}

/**
 * The sandbox of this process. Its control token, if any, is added to control calls: whoever
 * reached the tools has already shown it.
 */
export function createInProcessBackend(
  sandbox: Sandbox,
  options: { url: string; controlToken?: string | undefined },
): SandboxBackend {
  return {
    url: options.url,
    send: (request) =>
      sandbox.handle({
        method: request.method,
        url: request.url,
        headers: withControlToken(request, options.controlToken),
        body: request.body === undefined ? null : JSON.stringify(request.body),
      }),
  }
}

/** Why a connection was never made. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** A sandbox server at `url` (`http://localhost:4010`), with its control token, if any. */
export function createHttpBackend(url: string, controlToken?: string): SandboxBackend {
  const base = withoutTrailingSlashes(url)
  return {
    url: base,
    async send(request) {
      let response: Response
      try {
        response = await fetch(`${base}${request.url}`, {
          method: request.method,
          headers: withControlToken(request, controlToken),
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        })
      } catch (error) {
        // A connection never made: nothing answers there. One made and broken is the sandbox's
        // network error (a fault rule's `networkError`), an answer the tools report as such.
        const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? ''
        if (UNREACHABLE.has(code)) throw new Error(`no sandbox answers at ${base} (${code})`)
        return { status: 0, headers: {}, setCookie: [], body: undefined, networkError: true }
      }
      const headers: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') headers[name] = value
      })
      const text = await response.text()
      let body: unknown = text === '' ? undefined : text
      if (text !== '' && /json/.test(response.headers.get('content-type') ?? '')) {
        body = JSON.parse(text)
      }
      return { status: response.status, headers, setCookie: response.headers.getSetCookie(), body }
    },
  }
}
