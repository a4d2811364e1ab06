/**
 * @module
 * The MCP server of one connection (a stdio process, or an MCP session over HTTP). The tools
 * validate their arguments themselves (`tool.ts`): a bad one is a tool error naming it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { Operation } from '../../mocks/core/index.ts'
import packageJson from '../../package.json' with { type: 'json' }
import type { SandboxBackend } from './backend.ts'
import { tools, toolsByName } from './control-tools.ts'
import { operationTool } from './operation-tools.ts'
import { getPrompt, listPrompts } from './prompts.ts'
import { listResources, RESOURCE_TEMPLATES, readResource } from './resources.ts'
import { callTool, listedTool, type McpConnection, type SandboxTool, toolError } from './tool.ts'

const INSTRUCTIONS = `Drives the Platform API sandbox the app talks to.
Session: every tool acts on one session: its session argument, else the one useSession chose, else the client config's (the x-sandbox-session header over HTTP, --session over stdio), else "default", the app's and the dashboard's when they name none. getSession names it.
Operations: one tool per operationId. Arguments: persona (a key of listPersonas: the tool signs in as it) or accessToken, the path parameters, body (the JSON body: body.fullName), dryRun (true: answer, write nothing). The result is the API's answer whatever its status, { status, body, headers }, with changes (what a write changed: records created, changed field by field as [old, new], deleted) and, after a refusal, hint (what to do next).
Errors: isError only when a tool could not do its job (bad arguments, no sandbox); its text names each field to change.
Control tools set up what the app sees (scenarios, data, fault rules, the clock) and read its journal (the tools' own sign-ins left out). The resource sandbox://openapi/app.json documents every field; describeCollection a collection's. The prompts walk through a screen's data and an error state.`

/** Whatever `tools/list` gives: computed once, the tools are the same for every connection. */
let listed: ReturnType<typeof listedTool>[] | undefined
/** An MCP server over `backend`, acting on `session` (the client config's) by default. */
export function createMcpServer(options: {
  backend: SandboxBackend
  session?: string | undefined
  /** How long the sandbox runs, when what started it decides (`SandboxOptions.lifetime`). */
  lifetime?: string | undefined
  /**
   * The sandbox's operations: one tool more for each of your own. Read by a function (a sandbox
   * over HTTP) until it gives them: `undefined` while none answers.
   */
  operations?: readonly Operation[] | (() => Promise<readonly Operation[] | undefined>) | undefined
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
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions },
  )
  // A tool more for each operation of your own, kept once read.
  let own: SandboxTool[] | undefined
  const ownTools = async (): Promise<SandboxTool[]> => {
    if (own) return own
    const { operations = [] } = options
    const read = typeof operations === 'function' ? await operations() : operations
    const made = (read ?? []).filter((o) => o.proposed).map(operationTool)
    if (read !== undefined) own = made
    return made
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    listed ??= tools.map(listedTool)
    const mine = await ownTools()
    return { tools: mine.length === 0 ? listed : [...listed, ...mine.map(listedTool)] }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params
    const mine = await ownTools()
    const tool = mine.find((candidate) => candidate.name === name) ?? toolsByName.get(name)
    if (tool) return callTool(tool, args, connection)
    return toolError(`Unknown tool "${name}"`, [
      `name must be one of: ${[...toolsByName.keys(), ...mine.map((t) => t.name)].join(', ')}`,
    ])
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listPrompts() }))
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(request.params.name, request.params.arguments),
  )
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
