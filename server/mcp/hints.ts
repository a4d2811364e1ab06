/**
 * @module
 * What to do after an operation's refusal, said in its MCP result (the HTTP body keeps the
 * backend's words): a bad field named with its place, where the ids of a 404 are listed, who may
 * call after a 403 (the role, the persona that owns the record), the fault rule that answered.
 * Read from the operation's declared rules, so it follows them.
 */
import type { Operation, Precondition } from '../../mocks/core/index.ts'
import { FAULT_HEADER } from '../../mocks/core/index.ts'
import { collectionDefinitions } from '../../mocks/model/schemas.ts'
import type { BackendAnswer } from './backend.ts'
import { listPersonas } from './personas.ts'
import { describeRefusal, type ToolCall } from './tool.ts'

type Exists = Extract<Precondition, { kind: 'exists' }>
type Args = Record<string, unknown>
type Answer = BackendAnswer

/** `detail` with the field it starts with placed: `fullName is required` -> `body.fullName ...`. */
function placed(detail: string, bodyFields: readonly string[]): string {
  const [, prefix = '', field = ''] = /^(property )?(\w+)/.exec(detail) ?? []
  return bodyFields.includes(field) ? `${prefix}body.${detail.slice(prefix.length)}` : detail
}

/** Who a `caller` rule lets call: the ids in the record's field, with their persona keys. */
async function owners(rule: { field: string }, exists: Exists, args: Args, call: ToolCall) {
  const key = exists.key({ params: args as never, body: (args.body ?? {}) as never, caller: '' })
  const where = JSON.stringify({ [collectionDefinitions[exists.collection].key]: key })
  const url = `/__sandbox/collections/${exists.collection}?limit=1&where=${encodeURIComponent(where)}`
  const { items } = (await call.send({ method: 'GET', url })).body as { items?: object[] }
  const ids = [(items?.[0] as Record<string, unknown> | undefined)?.[rule.field] ?? []].flat()
  const personas = await listPersonas(call)
  const keyOf = (id: unknown) => personas.find((persona) => persona.publicId === id)?.key
  const named = ids.map((id) => (keyOf(id) ? `${String(id)} (persona ${keyOf(id)})` : String(id)))
  return `only ${exists.name} ${key}'s ${rule.field} may: ${named.join(', ') || 'nobody'}`
}

/** What to do next after `answer`, or `undefined` for a success. */
export async function hintFor(operation: Operation, args: Args, answer: Answer, call: ToolCall) {
  const fault = answer.headers.get(FAULT_HEADER)
  if (answer.status === 0) {
    return 'The sandbox broke the connection, as a fault rule with networkError asked: the app sees a network error (listFaults; removeFault ends it)'
  }
  if (fault) return `Fault rule ${fault} answered this: removeFault { "id": "${fault}" } ends it`
  if (answer.status < 400) return undefined
  const requires = operation.rules?.requires ?? []
  const exists = requires.filter((rule): rule is Exists => rule.kind === 'exists')
  const { message, details } = describeRefusal(answer)
  switch (answer.status) {
    case 400: {
      const fields = Object.keys((operation.body as { shape?: object } | undefined)?.shape ?? {})
      return `Change: ${details.map((detail) => placed(detail, fields)).join('; ') || message}`
    }
    case 401:
      return args.persona === undefined && args.accessToken === undefined
        ? 'Give persona (a key of listPersonas) or accessToken'
        : 'The token is not accepted: give persona, or signIn again'
    case 403: {
      const role = operation.auth === 'admin' ? 'admin' : operation.role
      if (role && message.includes(role)) {
        const personas = await listPersonas(call)
        const holders = personas.filter((persona) => persona.roles.includes(role as never))
        return `Needs the ${role} role: persona ${holders.map((persona) => persona.key).join(', ')}`
      }
      const said: string[] = []
      for (const rule of requires) {
        if (rule.kind !== 'caller' && rule.kind !== 'callerIn') continue
        const record = exists.find((exist) => exist.name === rule.record)
        if (record) said.push(await owners(rule, record, args, call))
      }
      return said.length > 0 ? `Call as the owner: ${said.join('; ')}` : undefined
    }
    case 404:
      return exists.length > 0
        ? `Known ids: ${exists.map((rule) => `readCollection { "name": "${rule.collection}" }${rule.owner ? ` (only the caller's, by ${rule.owner})` : ''}`).join(', ')}`
        : undefined
  }
  return undefined
}
