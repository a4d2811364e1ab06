/**
 * @module
 * Every tool, in `tools/list`'s order: one per operation, then the control tools. A control
 * tool's input is its route's body schema and its description the merged document's, so tools,
 * HTTP API and reference say the same thing.
 */
import { z } from 'zod'
import { controlRoutes } from '../../mocks/core/control-table.ts'
import { faultRuleSchema } from '../../mocks/core/fault-rules.ts'
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../mocks/core/paging.ts'
import { collectionNames } from '../../mocks/model/schemas.ts'
import { operations } from '../../mocks/operations/table.ts'
import { journalTools } from './journal-tools.ts'
import { operationTool } from './operation-tools.ts'
import { listPersonas, signedInSchema, signInAs } from './personas.ts'
import {
  controlResult,
  described,
  documentedBody,
  documentText,
  fillPath,
  refusalError,
  type SandboxTool,
  sessionArgument,
  toolResult,
} from './tool.ts'

type Method = 'GET' | 'POST' | 'DELETE'

/** The control route of `method path`; a route the table does not have is a mistake here. */
function controlRoute(method: Method, path: string) {
  const route = controlRoutes.find((row) => row.method === method && row.path === path)
  if (!route) throw new Error(`Failed to find the control route ${method} ${path}`)
  return route
}

/** The fields of `shape` (else of the route's body), described as the document describes them. */
function describedFields(method: Method, path: string, shape?: z.core.$ZodShape) {
  const { body } = controlRoute(method, path)
  const texts = documentedBody(method, path)?.properties ?? {}
  const fields = shape ?? (body instanceof z.core.$ZodObject ? body._zod.def.shape : {})
  return Object.fromEntries(
    Object.entries(fields).map(([name, schema]) => {
      const text = texts[name]?.description
      return [name, text ? described(schema, text) : schema]
    }),
  )
}

/**
 * The tool of one control route: its path parameters and body (but `session`) from its
 * arguments, its input the route's body schema (or `input`) as the document describes it.
 */
function routeTool(
  name: string,
  method: Method,
  path: string,
  options: {
    input?: z.core.$ZodShape
    /** Said after the document's text. */
    more?: string
    result?: (body: unknown, args: Record<string, unknown>) => Record<string, unknown>
  } = {},
): SandboxTool {
  const { body } = controlRoute(method, path)
  const { more, result } = options
  const fields = describedFields(method, path, options.input)
  return {
    name,
    description: more ? `${documentText(method, path)} ${more}` : documentText(method, path),
    input: z.strictObject({ ...fields, session: sessionArgument }),
    async run({ session: _, ...args }, call) {
      const url = fillPath(path, args)
      const sent = await call.send({ method, url, ...(body ? { body: args } : {}) })
      return controlResult(sent, result && ((answer) => result(answer, args)))
    },
  }
}

const sessionOnly = z.strictObject({ session: sessionArgument })

const sessionAnswer = z.object({
  session: z.string().describe('The session id (send it as x-sandbox-session)'),
  url: z.string().describe("The sandbox server's URL"),
  lifetime: z.string().optional().describe('How long the sandbox runs, if what started it says'),
})

const controlTools: readonly SandboxTool[] = [
  {
    name: 'listPersonas',
    description: documentText('GET', '/__sandbox/personas'),
    input: sessionOnly,
    async run(_, call) {
      return toolResult({ personas: await listPersonas(call) })
    },
  },
  {
    name: 'signIn',
    description: `Sign in as a persona in the session, as the dashboard does: ${documentText('POST', '/auth/idp/complete')} Then ${documentText('POST', '/auth/refresh')} Returns the access token (send it as Authorization: Bearer) and the refresh_token cookie's value.`,
    input: z.strictObject({
      persona: z.string().min(1).describe('A persona key (listPersonas): host, guest, admin...'),
      session: sessionArgument,
    }),
    output: signedInSchema,
    async run(args, call) {
      return toolResult(await signInAs(call, String(args.persona)))
    },
  },
  {
    name: 'getSession',
    description:
      'Name the session the tools act on and the sandbox server’s URL, so that a browser (the x-sandbox-session header or the sandbox_session cookie) or a Playwright worker can be pointed at the same state, once the sandbox answered there; and how long it runs, when what started it decides.',
    input: sessionOnly,
    output: sessionAnswer,
    async run(_, call) {
      const health = await call.send({ method: 'GET', url: '/__sandbox/health' })
      if (health.status !== 200) return refusalError(health)
      const { lifetime } = health.body as { lifetime?: string }
      const { url } = call.connection.backend
      return toolResult({ session: call.session, url, ...(lifetime ? { lifetime } : {}) })
    },
  },
  {
    name: 'useSession',
    description:
      'Choose the session every later tool call of this connection acts on when it names none: any session id, such as a Playwright worker’s. The session is created from the starting scenario when first used.',
    input: z.strictObject({
      session: sessionArgument.unwrap().describe('The session id to act on from now on'),
    }),
    output: sessionAnswer,
    async run(args, call) {
      call.connection.chosenSession = String(args.session)
      return toolResult({ session: call.session, url: call.connection.backend.url })
    },
  },
  routeTool('resetSession', 'POST', '/__sandbox/reset'),
  routeTool('saveSnapshot', 'POST', '/__sandbox/snapshots'),
  routeTool('listCollections', 'GET', '/__sandbox/collections', {
    result: (body) => ({ counts: body }),
  }),
  {
    name: 'readCollection',
    description: `${documentText('GET', '/__sandbox/collections/{name}')} Here the tool always answers a page (20 records unless \`limit\` says, at most 200), never the whole array.`,
    narrow: 'ask for fewer records (limit), fewer fields (fields) or only some (where)',
    input: z.strictObject({
      name: z.enum(collectionNames).describe('The collection (listCollections names them)'),
      limit: z.int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT).describe('At most 200'),
      cursor: z.string().optional().describe('The `next` of the page before; none at first'),
      fields: z.array(z.string()).min(1).optional().describe('Only these fields: ["id", "status"]'),
      where: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional()
        .describe('Field equals value: { "status": "pending", "hostId": "usr_host" }'),
      session: sessionArgument,
    }),
    async run({ name, limit, cursor, fields, where }, call) {
      const query = new URLSearchParams({ limit: String(limit) })
      if (typeof cursor === 'string') query.set('cursor', cursor)
      if (Array.isArray(fields)) query.set('fields', fields.join(','))
      if (where !== undefined) query.set('where', JSON.stringify(where))
      const url = `/__sandbox/collections/${String(name)}?${query}`
      return controlResult(await call.send({ method: 'GET', url }))
    },
  },
  routeTool('addFault', 'POST', '/__sandbox/faults', { input: faultRuleSchema.shape }),
  routeTool('listFaults', 'GET', '/__sandbox/faults', { result: (body) => ({ rules: body }) }),
  routeTool('removeFault', 'DELETE', '/__sandbox/faults/{id}', {
    input: {
      id: z.string().min(1).describe('The rule id (addFault answers it; listFaults lists them)'),
    },
    result: (_, args) => ({ removed: args.id }),
  }),
  routeTool('getClock', 'GET', '/__sandbox/clock'),
  {
    name: 'setClock',
    description: `${documentText('POST', '/__sandbox/clock')} \`real: true\` instead: ${documentText('DELETE', '/__sandbox/clock')}`,
    input: z
      .strictObject({
        ...describedFields('POST', '/__sandbox/clock'),
        real: z.literal(true).optional().describe('true: back to real time'),
        session: sessionArgument,
      })
      .refine(
        (value: Record<string, unknown>) =>
          [value.now, value.advanceSeconds, value.real].filter((given) => given !== undefined)
            .length === 1,
        { message: 'give exactly one of now, advanceSeconds, real', path: ['now'] },
      ),
    async run({ session: _, real, ...body }, call) {
      const url = '/__sandbox/clock'
      return controlResult(
        await call.send(real ? { method: 'DELETE', url } : { method: 'POST', url, body }),
      )
    },
  },
  ...journalTools,
]

export const tools: readonly SandboxTool[] = [...operations.map(operationTool), ...controlTools]

export const toolsByName: ReadonlyMap<string, SandboxTool> = new Map(
  tools.map((tool) => [tool.name, tool]),
)
