/**
 * @module
 * What a tool is (name, description, input schema, what it does) and the rule of the session
 * it acts on. The tools themselves are generated from the operation table
 * (`operation-tools.ts`) and declared over the control route table (`control-tools.ts`).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { DEFAULT_SESSION, SESSION_HEADER, SESSION_ID } from '../../mocks/core/session-id.ts'
import { describeIssues } from '../../mocks/core/validation.ts'
import type { BackendAnswer, BackendRequest, SandboxBackend } from './backend.ts'
import { toolError } from './tool-result.ts'

/** One MCP connection: the sandbox it drives and the session it acts on by default. */
export interface McpConnection {
  readonly backend: SandboxBackend
  /** The client config's session: its `x-sandbox-session` header (HTTP) or `--session` (stdio). */
  readonly configuredSession: string | undefined
  /** The session `useSession` chose, which wins over the configured one. */
  chosenSession: string | undefined
}

/** What a tool is given besides its input. */
export interface ToolCall {
  connection: McpConnection
  /** The session the call acts on (see {@link sessionOf}). */
  session: string
  /** Sends a request in that session. */
  send(request: BackendRequest): Promise<BackendAnswer>
}

export interface SandboxTool {
  name: string
  /** Where the description comes from: the merged document's text for a route or an operation. */
  description: string
  /** Every argument, `session` included; strict, so a misspelt argument is named. */
  input: z.ZodType<Record<string, unknown>>
  /** The shape of `structuredContent`, when it is always the same. */
  output?: z.ZodType
  run(input: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>
}

/**
 * `schema` with a description, as zod's `.describe()` gives it: the sandbox's own schemas are
 * written with `zod/mini` (`mocks/model/zod.ts`), which has no such method.
 */
export function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  const copy = z.core.clone(schema)
  z.globalRegistry.add(copy, { description })
  return copy
}

/** The optional `session` argument every tool takes. */
export const sessionArgument = z
  .string()
  .regex(SESSION_ID, 'must be 1 to 64 letters, digits or . _ : -')
  .optional()
  .describe(
    'The sandbox session to act on. Default: the one useSession chose, else the client config’s x-sandbox-session header (HTTP) or --session (stdio), else "default", the session the app and the dashboard use when they name none.',
  )

/**
 * The session a call acts on: its `session` argument, else the one `useSession` chose, else
 * the client config's, else `default`.
 */
export function sessionOf(argument: unknown, connection: McpConnection): string {
  if (typeof argument === 'string' && argument !== '') return argument
  return connection.chosenSession ?? connection.configuredSession ?? DEFAULT_SESSION
}

/** Validates the arguments in the tool, then runs it in its session; never throws. */
export async function callTool(
  tool: SandboxTool,
  args: unknown,
  connection: McpConnection,
): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {}, { reportInput: true })
  if (!parsed.success) {
    return toolError(
      `Invalid arguments for ${tool.name}`,
      describeIssues(parsed.error.issues, 'arguments'),
    )
  }
  const session = sessionOf(parsed.data.session, connection)
  const call: ToolCall = {
    connection,
    session,
    send: (request) =>
      connection.backend.send({
        ...request,
        headers: { ...request.headers, [SESSION_HEADER]: session },
      }),
  }
  try {
    return await tool.run(parsed.data, call)
  } catch (error) {
    return toolError(
      `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/** A schema as `tools/list` gives it, without `$schema`. */
function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' })
  return json as { type: 'object' } & Record<string, unknown>
}

/** The JSON Schema of a tool's arguments. */
export const inputJsonSchema = (tool: SandboxTool) => toolJsonSchema(tool.input, 'input')

/** The JSON Schema of a tool's `structuredContent`, if it declares one. */
export const outputJsonSchema = (tool: SandboxTool) =>
  tool.output && toolJsonSchema(tool.output, 'output')
