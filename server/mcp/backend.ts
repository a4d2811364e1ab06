/**
 * @module
 * How the MCP tools reach a sandbox: in this process (`sandbox.handle`) or over HTTP (`--url`),
 * through the sandbox's one client, for the same answers, refusals and journal as the app's.
 */

import { isControlPath } from '../../mocks/core/index.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import {
  createSandboxClient,
  inProcess,
  overHttp,
  type SandboxClient,
  type SandboxReply,
  type Transport,
} from '../../mocks/sandbox-client/sandbox-client.ts'
import { withoutTrailingSlashes } from '../exposure.ts'

/** A request as a tool sends it: path with its query, lower-case header names. */
export interface BackendRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  /** Sent as JSON. */
  body?: unknown
}

/** What the sandbox answered; status `0`: it broke the connection. */
export type BackendAnswer = SandboxReply

export interface SandboxBackend {
  /** The sandbox server's URL, for a browser or a test runner to be pointed at. */
  readonly url: string
  /** Its client; a control call carries the control token, if there is one. */
  readonly client: SandboxClient
  /** Sends one request. */
  send(request: BackendRequest): Promise<BackendAnswer>
}

/** The backend over `send`; a control call carries the control token, if there is one. */
function backend(url: string, send: Transport, controlToken: string | undefined): SandboxBackend {
  const client = createSandboxClient({
    send: (request) =>
      send(
        controlToken !== undefined && isControlPath(request.url.split('?')[0]!)
          ? { ...request, headers: { ...request.headers, authorization: `Bearer ${controlToken}` } }
          : request,
      ),
  })
  return { url, client, send: ({ url: path, ...init }) => client.request(path, init) }
}

/**
 * The sandbox of this process. Its control token, if any, is added to control calls: whoever
 * reached the tools has already shown it.
 */
export function createInProcessBackend(
  sandbox: Sandbox,
  options: { url: string; controlToken?: string | undefined },
): SandboxBackend {
  return backend(options.url, inProcess(sandbox), options.controlToken)
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
  const reach: typeof fetch = async (input, init) => {
    try {
      return await fetch(input, init)
    } catch (error) {
      // A connection never made: nothing answers there. One made and broken is the sandbox's
      // network error (a fault rule's `networkError`), an answer the tools report as such.
      const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? ''
      if (UNREACHABLE.has(code)) throw new Error(`no sandbox answers at ${base} (${code})`)
      return Response.error()
    }
  }
  return backend(base, overHttp(base, { fetch: reach }), controlToken)
}
