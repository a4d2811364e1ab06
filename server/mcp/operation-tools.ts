/**
 * @module
 * One tool per operation of the operation table: its `operationId`, taking `persona` or
 * `accessToken`, its path parameters, `body` and `dryRun`; answering `{ status, body, headers }`
 * whatever the status, with `changes` after a write and `hint` after a refusal.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Operation } from '../../mocks/core/index.ts'
import { CHANGES_HEADER, decodeChanges } from '../../mocks/core/index.ts'
import type { BackendAnswer } from './backend.ts'
import { hintFor } from './hints.ts'
import { signInAs } from './personas.ts'
import {
  documentedOperation,
  fillPath,
  type SandboxTool,
  sessionArgument,
  shortened,
  type ToolCall,
  type ToolEffect,
  toolResult,
} from './tool.ts'

/** The answer headers a caller acts on; the others are the same on every answer. */
function headersThatMatter(answer: BackendAnswer): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {}
  answer.headers.forEach((value, name) => {
    if (/^(x-sandbox-|retry-after$|location$)/.test(name) && name !== CHANGES_HEADER) {
      kept[name] = value
    }
  })
  const setCookie = answer.headers.getSetCookie()
  if (setCookie.length > 0) kept['set-cookie'] = setCookie
  return kept
}

/** What the operation does to the sandbox, from its declared rules: a GET reads. */
function effectOf(operation: Operation): ToolEffect {
  const { rules } = operation
  if (operation.method === 'GET' || WRITES_NOTHING.has(operation.id)) return 'read'
  if (!rules) return { destructive: true, idempotent: false }
  const effects = rules.effects ?? []
  /** What each write sets: `record.field` to its value, a record's name to `true`. */
  const writes = new Map<string, unknown>(
    effects.flatMap((effect) =>
      'update' in effect
        ? Object.entries(effect.set).map(([field, value]) => [`${effect.update}.${field}`, value])
        : [['insert' in effect ? effect.insert : effect.act, true]],
    ),
  )
  // A repeat is refused (409) for the state the first call wrote: it changes nothing more.
  const idempotent = rules.requires.some((rule) => {
    if (rule.kind === 'absent') return writes.has(rule.name)
    if (rule.kind === 'notActed') return writes.has(rule.record)
    if (rule.kind === 'find')
      return Object.keys(rule.where).some((f) => writes.has(`${rule.name}.${f}`))
    if (rule.kind === 'differs') return writes.has(`${rule.record}.${rule.field}`)
    if (rule.kind !== 'oneOf' && rule.kind !== 'noneOf') return false
    const value = writes.get(`${rule.record}.${rule.field}`)
    // A value worked out per call (a time) is taken to leave the values `oneOf` admits.
    const among = typeof value !== 'function' && rule.values.includes(value)
    return value !== undefined && among === (rule.kind === 'noneOf')
  })
  return { destructive: effects.some((effect) => !('insert' in effect)), idempotent }
}

/** Operations as code that write nothing: a refresh issues a token, a sign-in sets a cookie. */
const WRITES_NOTHING = new Set(['refreshToken', 'completeIdpSignIn'])

/** The answer, whatever its status; what a write changed; what to do after a refusal. */
async function operationResult(
  operation: Operation,
  args: Record<string, unknown>,
  answer: BackendAnswer,
  call: ToolCall,
): Promise<CallToolResult> {
  const changes = answer.headers.get(CHANGES_HEADER)
  const hint = await hintFor(operation, args, answer, call)
  return toolResult({
    status: answer.status,
    body: answer.body ?? null,
    headers: headersThatMatter(answer),
    ...(changes ? { changes: decodeChanges(changes) } : {}),
    ...(hint ? { hint } : {}),
  })
}

/** The tool of one operation. */
export function operationTool(operation: Operation): SandboxTool {
  const input = z
    .strictObject({
      persona: z.string().min(1).optional(),
      accessToken: z.string().min(1).optional(),
      ...operation.params.shape,
      // Parsed when absent too, so a required field is named where it goes: body.fullName.
      ...(operation.body ? { body: z.prefault(operation.body as z.ZodType<object>, {}) } : {}),
      ...(operation.query ? { query: z.prefault(operation.query as z.ZodType<object>, {}) } : {}),
      ...(operation.dryRun ? { dryRun: z.boolean().default(false) } : {}),
      session: sessionArgument,
    })
    .refine((value) => value.persona === undefined || value.accessToken === undefined, {
      message: 'give persona or accessToken, not both',
      path: ['accessToken'],
    })
  // An operation of your own says what it is itself (its summary, its description's first
  // sentence); the 13, the merged document.
  const own = operation.proposed
  const text = (own?.declaration as { description?: string } | undefined)?.description
  const why = text?.split(/(?<=\.)\s/)[0]
  const { summary, description } = own
    ? { summary: own.summary, description: why ? `${own.summary}: ${why}` : own.summary }
    : documentedOperation(operation.method, operation.path)
  return {
    name: operation.id,
    title: summary ?? operation.id,
    description: shortened(description ?? ''),
    effect: effectOf(operation),
    route: { method: operation.method, path: operation.path },
    bodyFields: Object.keys((operation.body as { shape?: object } | undefined)?.shape ?? {}),
    queryFields: Object.keys((operation.query as { shape?: object } | undefined)?.shape ?? {}),
    input: input as never,
    async run(args, call) {
      const token =
        args.persona === undefined
          ? (args.accessToken as string | undefined)
          : (await signInAs(call, String(args.persona), { quiet: true })).accessToken
      const search = new URLSearchParams(args.query as Record<string, string> | undefined)
      if (operation.dryRun) search.set('dryRun', String(args.dryRun === true))
      const query = search.size > 0 ? `?${search}` : ''
      const answer = await call.send({
        method: operation.method,
        url: `${fillPath(operation.path, args)}${query}`,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          [CHANGES_HEADER]: 'true',
        },
        ...(operation.method === 'GET' ? {} : { body: args.body ?? {} }),
      })
      return operationResult(operation, args, answer, call)
    },
  }
}
