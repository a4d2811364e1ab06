/**
 * @module
 * What a tool is, the session it acts on, what it answers (a result, or a tool error that says
 * what to change, never a protocol error) and where its description comes from.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import {
  DEFAULT_SESSION,
  SESSION_HEADER,
  SESSION_ID,
  SESSION_ID_RULE,
} from '../../mocks/core/session-id.ts'
import { describeIssues } from '../../mocks/core/validation.ts'
import merged from '../../spec/merged-document.ts'
import type { BackendAnswer, BackendRequest, SandboxBackend } from './backend.ts'

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
  session: string
  /** Sends a request in that session. */
  send(request: BackendRequest): Promise<BackendAnswer>
}

export interface SandboxTool {
  name: string
  /** The merged document's text for the route or operation it calls. */
  description: string
  /** Every argument, `session` included; strict, so a misspelt argument is named. */
  input: z.ZodType<Record<string, unknown>>
  /** The shape of `structuredContent`, when it is always the same. */
  output?: z.ZodType
  /** How to ask for less, said when a result is cut at `RESULT_CAP`. */
  narrow?: string
  run(input: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>
}

/** `schema` described: the sandbox's schemas use `zod/mini`, which has no `.describe()`. */
export function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  const copy = z.core.clone(schema)
  z.globalRegistry.add(copy, { description })
  return copy
}

/** The optional `session` argument every tool takes. */
export const sessionArgument = z
  .string()
  .regex(SESSION_ID, SESSION_ID_RULE)
  .optional()
  .describe(
    'The sandbox session to act on. Default: the one useSession chose, else the client config’s x-sandbox-session header (HTTP) or --session (stdio), else "default", the session the app and the dashboard use when they name none.',
  )

/** The session of a call: its argument, else `useSession`'s, else the config's, else `default`. */
export function sessionOf(argument: unknown, connection: McpConnection): string {
  if (typeof argument === 'string' && argument !== '') return argument
  return connection.chosenSession ?? connection.configuredSession ?? DEFAULT_SESSION
}

/** `path` with each `{name}` replaced by the argument of that name, encoded. */
export const fillPath = (path: string, args: Record<string, unknown>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(args[name])))

/** Most characters of a result's text (its `structuredContent` is the same JSON, compact). */
export const RESULT_CAP = 100_000

/** `result`, or past the cap a tool error: what to ask instead, then the text's beginning. */
function capped(result: CallToolResult, tool: SandboxTool): CallToolResult {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
  if (text.length <= RESULT_CAP) return result
  const note = `${tool.name}'s result is ${text.length} characters, over the ${RESULT_CAP} a tool result may have: ${tool.narrow ?? 'ask for less'}. Its beginning:\n`
  return {
    content: [{ type: 'text', text: note + text.slice(0, RESULT_CAP - note.length) }],
    isError: true,
  }
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
    return capped(await tool.run(parsed.data, call), tool)
  } catch (error) {
    if (error instanceof ToolFailure) return error.result
    return toolError(
      `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/** A tool as `tools/list` gives it, its schemas without `$schema`. */
export function listedTool({ name, description, input, output }: SandboxTool) {
  const json = (schema: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' })
    return rest as { type: 'object' } & Record<string, unknown>
  }
  return {
    name,
    description,
    inputSchema: json(input, 'input'),
    ...(output ? { outputSchema: json(output, 'output') } : {}),
  }
}

/** Ends a tool with `result`, a tool error, from anywhere in its run. */
export class ToolFailure extends Error {
  readonly result: CallToolResult
  constructor(result: CallToolResult) {
    super('The tool ended with a tool error')
    this.result = result
  }
}

/** A result: the value as `structuredContent` and, for clients that read only text, as JSON. */
export function toolResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
    ...(isError ? { isError: true } : {}),
  }
}

/** A tool error: a one-line message, then one line per problem (each naming its field). */
export function toolError(message: string, details: readonly string[] = []): CallToolResult {
  return {
    content: [{ type: 'text', text: [message, ...details.map((line) => `- ${line}`)].join('\n') }],
    isError: true,
  }
}

/** The message and details of an `ApiErrorResponseDto`, or of any other answer. */
export function describeRefusal(answer: Pick<BackendAnswer, 'status' | 'body' | 'networkError'>): {
  message: string
  details: string[]
} {
  if (answer.networkError) {
    return { message: 'The sandbox broke the connection (a network error)', details: [] }
  }
  const body = (answer.body ?? {}) as { message?: unknown; details?: unknown }
  const message =
    typeof body.message === 'string' ? body.message : `The sandbox answered ${answer.status}`
  const details = Array.isArray(body.details) ? body.details.map(String) : []
  return { message: `${answer.status}: ${message}`, details }
}

/** A refused answer as a tool error, its message after `prefix` (`Failed to ...: 404: ...`). */
export function refusalError(answer: BackendAnswer, prefix?: string): CallToolResult {
  const { message, details } = describeRefusal(answer)
  return toolError(prefix === undefined ? message : `${prefix}: ${message}`, details)
}

/** A control call's body on success, else its refusal as a tool error, as the HTTP API gives it. */
export function controlResult(
  answer: BackendAnswer,
  shape: (body: unknown) => Record<string, unknown> = (body) =>
    body === undefined ? { ok: true } : Array.isArray(body) ? { items: body } : (body as never),
): CallToolResult {
  if (answer.networkError || answer.status >= 400) return refusalError(answer)
  return toolResult(shape(answer.body))
}

interface DocumentedSchema {
  $ref?: string
  properties?: Record<string, { description?: string }>
}

const documented = merged as unknown as {
  paths: Record<string, Record<string, DocumentedOperation>>
  components: { schemas: Record<string, DocumentedSchema> }
}

interface DocumentedOperation {
  summary?: string
  description?: string
  requestBody?: { content?: Record<string, { schema?: DocumentedSchema }> }
}

/** `method path` in the merged document. */
function documentedOperation(method: string, path: string): DocumentedOperation {
  const operation = documented.paths[path]?.[method.toLowerCase()]
  if (!operation)
    throw new Error(`Failed to describe ${method} ${path}: not in the merged document`)
  return operation
}

/** "Summary. Description" of `method path` in the merged document. */
export function documentText(method: string, path: string): string {
  const { summary, description } = documentedOperation(method, path)
  return [summary?.replace(/\.?$/, '.'), description].filter(Boolean).join(' ')
}

/** The merged document's JSON request body schema of `method path`, its `$ref` followed. */
export function documentedBody(method: string, path: string): DocumentedSchema | undefined {
  const schema = documentedOperation(method, path).requestBody?.content?.['application/json']
  const ref = schema?.schema?.$ref
  return ref ? documented.components.schemas[ref.split('/').at(-1)!] : schema?.schema
}
