/**
 * @module
 * Where `/__sandbox/mcp` meets the server: the MCP module (and its SDK) is loaded on the
 * first call to the route, so that the server's start does not pay for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Sandbox } from '../mocks/sandbox.ts'
import { answerUnexpectedError } from './handler.ts'
import type { createMcpEndpoint, McpEndpointOptions } from './mcp/http-endpoint.ts'

const MCP_PATH = '/__sandbox/mcp'

const endpoints = new WeakMap<Sandbox, Promise<ReturnType<typeof createMcpEndpoint>>>()
const loaded = new WeakMap<Sandbox, ReturnType<typeof createMcpEndpoint>>()

/** The route's handler: answers `/__sandbox/mcp` (returns `true`), leaves every other path. */
export function createMcpRoute(sandbox: Sandbox, options: McpEndpointOptions) {
  return function answerMcp(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/'
    if (url !== MCP_PATH && !url.startsWith(`${MCP_PATH}?`)) return false
    let endpoint = endpoints.get(sandbox)
    if (!endpoint) {
      endpoint = import('./mcp/http-endpoint.ts').then((module) => {
        const made = module.createMcpEndpoint(sandbox, options)
        loaded.set(sandbox, made)
        return made
      })
      endpoints.set(sandbox, endpoint)
    }
    endpoint
      .then((loaded) => loaded.handle(req, res))
      .catch((error: unknown) => answerUnexpectedError(error, res))
    return true
  }
}

/** The MCP sessions of `sandbox` open now (none before its endpoint is first used). */
export function mcpSessionCount(sandbox: Sandbox): number {
  return loaded.get(sandbox)?.sessionCount() ?? 0
}

/** Closes the MCP sessions of `sandbox`, if its endpoint was ever loaded. */
export async function closeMcpSessions(sandbox: Sandbox): Promise<void> {
  const endpoint = endpoints.get(sandbox)
  if (endpoint) await (await endpoint).close()
}
