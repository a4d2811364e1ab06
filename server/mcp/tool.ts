/**
 * @module
 * What a tool is, the session it acts on, what it answers (a result, or a tool error that says
 * what to change, never a protocol error) and where its description comes from.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import {
  DEFAULT_SESSION,
  describeIssues,
  SESSION_HEADER,
  SESSION_ID,
  SESSION_ID_RULE,
} from '../../mocks/core/index.ts'
import { describeRefusal, SandboxRefusal } from '../../mocks/sandbox-client/sandbox-client.ts'
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

/** What a tool does to the sandbox, as its MCP annotations say: reads, or writes (how). */
export type ToolEffect = 'read' | { destructive: boolean; idempotent: boolean }

export interface SandboxTool {
  name: string
  title: string
  /** Short: the merged document says more (the guide's reference gives it, from `route`). */
  description: string
  effect: ToolEffect
  /** The route or operation it calls, whose document text the guide's reference shows. */
  route?: { method: string; path: string }
  /** The fields of its `body` argument: one given beside it is named as belonging there. */
  bodyFields?: readonly string[]
  /** The fields of its `query` argument, named so too. */
  queryFields?: readonly string[]
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

/** The optional `session` argument every tool takes; the server's instructions say the rest. */
export const sessionArgument = z.string().regex(SESSION_ID, SESSION_ID_RULE).optional()

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
    const misplaced = (line: string) => {
      const field = /^property (\w+) should not exist$/.exec(line)?.[1] ?? ''
      const place = tool.bodyFields?.includes(field) ? 'body' : undefined
      const where = place ?? (tool.queryFields?.includes(field) ? 'query' : undefined)
      return where ? `${line}: it goes in ${where} (${where}.${field})` : line
    }
    return toolError(
      `Invalid arguments for ${tool.name}`,
      describeIssues(parsed.error.issues, 'arguments').map(misplaced),
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
    if (error instanceof SandboxRefusal) return toolError(error.message, error.details)
    return toolError(
      `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/**
 * A JSON Schema without what zod adds and no client needs: its own formats, 2^53 bounds, the
 * pattern of a format it names (a date-time's is 400 characters), `propertyNames: string`.
 */
export function lean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lean)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = lean(value)
  if (typeof out.format === 'string' && !/^(date-time|date|email|uri)$/.test(out.format)) {
    delete out.format
  }
  if (out.format || String(out.pattern).length > 100) delete out.pattern
  for (const bound of ['minimum', 'maximum']) {
    if (Math.abs(Number(out[bound])) === Number.MAX_SAFE_INTEGER) delete out[bound]
  }
  if (JSON.stringify(out.propertyNames) === '{"type":"string"}') delete out.propertyNames
  if (Array.isArray(out.allOf)) Object.assign(out, ...out.allOf, { allOf: undefined })
  return out
}

/** A tool as `tools/list` gives it: schemas without `$schema` or zod's noise, annotations. */
export function listedTool({ name, title, description, effect, input, output }: SandboxTool) {
  const json = (schema: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' })
    return lean(rest) as { type: 'object' } & Record<string, unknown>
  }
  const read = effect === 'read'
  return {
    name,
    title,
    description,
    inputSchema: json(input, 'input'),
    ...(output ? { outputSchema: json(output, 'output') } : {}),
    annotations: {
      readOnlyHint: read,
      destructiveHint: !read && effect.destructive,
      idempotentHint: read || effect.idempotent,
      openWorldHint: false,
    },
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
export function toolResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

/** A tool error: a one-line message, then one line per problem (each naming its field). */
export function toolError(message: string, details: readonly string[] = []): CallToolResult {
  return {
    content: [{ type: 'text', text: [message, ...details.map((line) => `- ${line}`)].join('\n') }],
    isError: true,
  }
}

export { describeRefusal }

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
  if (answer.status === 0 || answer.status >= 400) return refusalError(answer)
  return toolResult(shape(answer.body))
}

interface DocumentedOperation {
  summary?: string
  description?: string
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> }
}

const documented = merged as unknown as {
  paths: Record<string, Record<string, DocumentedOperation>>
}

/** `method path` in the merged document. */
export function documentedOperation(method: string, path: string): DocumentedOperation {
  const operation = documented.paths[path]?.[method.toLowerCase()]
  if (!operation)
    throw new Error(`Failed to describe ${method} ${path}: not in the merged document`)
  return operation
}

/** An operation's text without its refusals, for `tools/list`: its `hint`s say what to do. */
export const shortened = (text: string) => text.replace(/ The sandbox answers [^.]*\./, '')
