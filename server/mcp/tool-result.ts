/**
 * @module
 * What a tool answers: its result as JSON text and `structuredContent`, or a tool error
 * (`isError: true`) that says what to change, never a protocol error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { BackendAnswer } from './backend.ts'

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

interface ApiErrorBody {
  message?: unknown
  code?: unknown
  details?: unknown
}

/** The message and details of an `ApiErrorResponseDto`, or of any other answer. */
export function describeRefusal(answer: BackendAnswer): { message: string; details: string[] } {
  if (answer.networkError) {
    return { message: 'The sandbox broke the connection (a network error)', details: [] }
  }
  const body = (answer.body ?? {}) as ApiErrorBody
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

/**
 * The answer of a control call: its body on success, else the refusal as a tool error, the
 * same message and details the HTTP API gives.
 */
export function controlResult(
  answer: BackendAnswer,
  shape: (body: unknown) => Record<string, unknown> = (body) =>
    body === undefined ? { ok: true } : Array.isArray(body) ? { items: body } : (body as never),
): CallToolResult {
  if (answer.networkError || answer.status >= 400) return refusalError(answer)
  return toolResult(shape(answer.body))
}
