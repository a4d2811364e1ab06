/**
 * @module
 * `/__sandbox/mcp`: MCP over Streamable HTTP, part of the control API (its token, its origin rule;
 * its `Host` and session rules at the server's edge, `exposure.ts`), with a bounded number of
 * MCP sessions (a cap, least recently used first, and an idle timeout).
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { SandboxRequest, SandboxResponse } from '../../mocks/core/index.ts'
import {
  type ControlOriginRule,
  createControlOriginRule,
  refuseCrossSiteControl,
  refuseWithoutControlToken,
  SandboxError,
  SESSION_HEADER,
} from '../../mocks/core/index.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import { writeAnswer } from '../handler.ts'
import { createInProcessBackend } from './backend.ts'
import { createMcpServer } from './create-mcp-server.ts'

const DEFAULT_MAX_MCP_SESSIONS = 100
const DEFAULT_MCP_IDLE_TIMEOUT_MS = 30 * 60_000
/** Largest JSON-RPC message accepted: tool arguments are small. */
const MAX_MESSAGE_BYTES = 1024 * 1024

export interface McpEndpointOptions {
  controlToken?: string | undefined
  /** The origins whose pages may call it (the control API's rule). */
  controlOrigins: readonly string[]
  maxSessions?: number | undefined
  idleTimeoutMs?: number | undefined
}

function refuse(res: ServerResponse, status: 400 | 403 | 404, message: string, details: string[]) {
  writeAnswer(res, new SandboxError(status, message, details).toResponse())
}

/** What the endpoint answers instead of serving `req`, if it must not serve it. */
function refusalOf(
  req: IncomingMessage,
  options: McpEndpointOptions,
  controlOrigins: ControlOriginRule,
): SandboxResponse | undefined {
  const request: SandboxRequest = {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers as SandboxRequest['headers'],
  }
  // Every MCP call may change state: a page of another site is refused whatever its method.
  const crossSite = refuseCrossSiteControl(request, 'POST', controlOrigins)
  if (crossSite || options.controlToken === undefined) return crossSite
  const refusal = refuseWithoutControlToken(request, options.controlToken)
  // No challenge: a client that follows the spec would start OAuth discovery on one.
  if (refusal) delete refusal.headers['www-authenticate']
  return refusal
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/**
 * The endpoint of `sandbox`: one MCP server per MCP session, each acting by default on the
 * sandbox session its client config names (`x-sandbox-session`) or `default`.
 */
export function createMcpEndpoint(sandbox: Sandbox, options: McpEndpointOptions) {
  const controlOrigins = createControlOriginRule(options.controlOrigins)
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_MCP_IDLE_TIMEOUT_MS
  /** Least recently used first (a `Map` keeps insertion order; a use moves it to the end). */
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; lastUsed: number }>()
  const closeSession = (id: string) => {
    void sessions.get(id)?.transport.close()
    sessions.delete(id)
  }
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const [id, open] of sessions) {
        if (now - open.lastUsed >= idleTimeoutMs) closeSession(id)
      }
    },
    Math.max(50, Math.min(idleTimeoutMs / 4, 60_000)),
  )
  sweep.unref()

  async function open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Valid: the server's edge refused a malformed one.
    const session = single(req.headers[SESSION_HEADER])
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_MESSAGE_BYTES,
      onsessioninitialized(id) {
        while (sessions.size >= maxSessions) {
          const oldest = sessions.keys().next().value
          if (oldest === undefined) break
          closeSession(oldest)
        }
        sessions.set(id, { transport, lastUsed: Date.now() })
      },
    })
    // Also on DELETE: the transport closes itself after `onsessionclosed`.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
    }
    const server = createMcpServer({
      backend: createInProcessBackend(sandbox, {
        url: `http://${req.headers.host ?? 'localhost'}`,
        controlToken: options.controlToken,
      }),
      session: session === '' ? undefined : session,
      lifetime: sandbox.settings.lifetime,
      operations: sandbox.operations,
    })
    await server.connect(transport)
    await transport.handleRequest(req, res)
  }

  return {
    /** The MCP sessions open now. */
    sessionCount: () => sessions.size,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const refusal = refusalOf(req, options, controlOrigins)
      if (refusal) return writeAnswer(res, refusal)
      const id = single(req.headers['mcp-session-id'])
      if (id === undefined) {
        if (req.method === 'POST') return open(req, res)
        refuse(res, 400, 'No MCP session', [
          'start one with an initialize request (POST) first; then send its mcp-session-id header',
        ])
        return
      }
      const found = sessions.get(id)
      if (!found) {
        // 404 tells the client to start a new MCP session (the spec's rule).
        refuse(res, 404, `No MCP session ${id}`, [
          'it was closed, evicted (idle or past the cap) or the sandbox restarted: initialize again',
        ])
        return
      }
      found.lastUsed = Date.now()
      sessions.delete(id)
      sessions.set(id, found)
      await found.transport.handleRequest(req, res)
    },
    async close(): Promise<void> {
      clearInterval(sweep)
      const open = [...sessions.values()]
      sessions.clear()
      await Promise.all(open.map(({ transport }) => transport.close()))
    },
  }
}
