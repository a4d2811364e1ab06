/**
 * @module
 * The MCP server of one connection (a stdio process, or an MCP session over HTTP). The tools
 * validate their arguments themselves (`tool.ts`): a bad one is a tool error naming it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import packageJson from '../../package.json' with { type: 'json' }
import type { SandboxBackend } from './backend.ts'
import { tools, toolsByName } from './control-tools.ts'
import { listResources, RESOURCE_TEMPLATES, readResource } from './resources.ts'
import { callTool, listedTool, type McpConnection, toolError } from './tool.ts'

const INSTRUCTIONS = `Drives the Platform API sandbox the app talks to: call its operations as a persona (one tool per operationId), and set up what the app will see: sessions, data, fault rules, the clock; then read the journal of what the app sent. Every tool acts on one session: the one useSession chose, else the client config's, else "default" (the app's when it names none). getSession names it and the sandbox's URL.`

/** Whatever `tools/list` gives: computed once, the tools are the same for every connection. */
let listed: ReturnType<typeof listedTool>[] | undefined

/** An MCP server over `backend`, acting on `session` (the client config's) by default. */
export function createMcpServer(options: {
  backend: SandboxBackend
  session?: string | undefined
  /** How long the sandbox runs, when what started it decides (`SandboxOptions.lifetime`). */
  lifetime?: string | undefined
}): Server {
  const connection: McpConnection = {
    backend: options.backend,
    configuredSession: options.session,
    chosenSession: undefined,
  }
  const { lifetime } = options
  const instructions = lifetime ? `${INSTRUCTIONS} This sandbox, ${lifetime}.` : INSTRUCTIONS
  const server = new Server(
    { name: 'platform-sandbox', version: packageJson.version, title: 'Platform API sandbox' },
    { capabilities: { tools: {}, resources: {} }, instructions },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => {
    listed ??= tools.map(listedTool)
    return { tools: listed }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params
    const tool = toolsByName.get(name)
    if (tool) return callTool(tool, args, connection)
    return toolError(`Unknown tool "${name}"`, [
      `name must be one of: ${[...toolsByName.keys()].join(', ')}`,
    ])
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: listResources(connection),
  }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [...RESOURCE_TEMPLATES],
  }))
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    readResource(connection, request.params.uri),
  )
  return server
}
