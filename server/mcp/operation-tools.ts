/**
 * @module
 * One tool per operation of the operation table: its `operationId`, taking `persona` or
 * `accessToken`, its path parameters, `body` and `dryRun`; answering `{ status, body, headers }`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Operation } from '../../mocks/core/operation.ts'
import type { BackendAnswer } from './backend.ts'
import { signInAs } from './personas.ts'
import {
  described,
  documentText,
  fillPath,
  refusalError,
  type SandboxTool,
  sessionArgument,
  toolError,
  toolResult,
} from './tool.ts'

/** The answer headers a caller acts on; the others are the same on every answer. */
function headersThatMatter(answer: BackendAnswer): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) =>
      /^(x-sandbox-|retry-after$|location$)/.test(name),
    ),
  )
  if (answer.setCookie.length > 0) kept['set-cookie'] = answer.setCookie
  return kept
}

const operationOutput = z.object({
  status: z.number().int().describe('The HTTP status the sandbox answered'),
  body: z.unknown().describe('The JSON body of the answer'),
  headers: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .describe('set-cookie, retry-after, x-sandbox-session-created, x-sandbox-fault...'),
})

/** Statuses that mean "this input is refused", as a tool error rather than an observation. */
const INPUT_REFUSED = new Set([400, 413])

function operationResult(answer: BackendAnswer): CallToolResult {
  if (answer.networkError) {
    return toolError(
      'The sandbox broke the connection, as a fault rule with networkError asked: the app would see a network error',
    )
  }
  const result = toolResult(
    { status: answer.status, body: answer.body ?? null, headers: headersThatMatter(answer) },
    INPUT_REFUSED.has(answer.status),
  )
  if (result.isError) result.content = [...refusalError(answer).content, ...result.content]
  return result
}

/** The tool of one operation. */
export function operationTool(operation: Operation): SandboxTool {
  const params = Object.fromEntries(
    Object.entries(operation.params.shape).map(([name, schema]) => [
      name,
      described(schema, `The {${name}} of ${operation.path}`),
    ]),
  )
  const input = z
    .strictObject({
      persona: z
        .string()
        .min(1)
        .optional()
        .describe('Call as this persona (a key of listPersonas): the tool signs in as it first'),
      accessToken: z
        .string()
        .min(1)
        .optional()
        .describe('Call with this access token (Authorization: Bearer), instead of a persona'),
      ...params,
      ...(operation.body
        ? { body: z.optional(operation.body).describe('The JSON body of the request') }
        : {}),
      ...(operation.dryRun
        ? {
            dryRun: z
              .boolean()
              .default(false)
              .describe('true: answer exactly what the call would answer, and write nothing'),
          }
        : {}),
      session: sessionArgument,
    })
    .refine((value) => value.persona === undefined || value.accessToken === undefined, {
      message: 'give persona or accessToken, not both',
      path: ['accessToken'],
    })
  return {
    name: operation.id,
    description: documentText(operation.method, operation.path),
    input: input as never,
    output: operationOutput,
    async run(args, call) {
      const token =
        args.persona === undefined
          ? (args.accessToken as string | undefined)
          : (await signInAs(call, String(args.persona), { quiet: true })).accessToken
      const query = operation.dryRun ? `?dryRun=${args.dryRun === true}` : ''
      const answer = await call.send({
        method: operation.method,
        url: `${fillPath(operation.path, args)}${query}`,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        ...(operation.method === 'POST' ? { body: args.body ?? {} } : {}),
      })
      return operationResult(answer)
    },
  }
}
