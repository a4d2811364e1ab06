/**
 * @module
 * Every tool, in `tools/list`'s order: one per operation, then the control tools. A control
 * tool's input is its route's body schema, its title the route's summary and its description
 * short: the merged document (the `openapi` resources, the guide's reference) says the rest,
 * and the server's instructions say the session rule once.
 */
import { z } from 'zod'
import {
  CHANGES_HEADER,
  controlRoutes,
  decodeChanges,
  faultRuleSchema,
} from '../../mocks/core/index.ts'
import { operations } from '../../mocks/operations/table.ts'
import { collectionTools } from './collection-tools.ts'
import { journalTools } from './journal-tools.ts'
import { operationTool } from './operation-tools.ts'
import { listPersonas, signInAs } from './personas.ts'
import {
  controlResult,
  documentedOperation,
  fillPath,
  refusalError,
  type SandboxTool,
  sessionArgument,
  type ToolEffect,
  toolResult,
} from './tool.ts'

type Method = 'GET' | 'POST' | 'DELETE'

/** What each control tool does, in a sentence or two. */
const SAID: Record<string, string> = {
  listPersonas: 'The personas: key, public id, roles and fixed credentials.',
  signIn:
    'As the dashboard does (identity provider, then a dry-run refresh): the access token and the refresh_token cookie’s value. Operation tools given persona sign in themselves.',
  getSession:
    'The session the tools act on and the sandbox’s URL, to point a browser (x-sandbox-session header or sandbox_session cookie) or a Playwright worker at the same state.',
  useSession:
    'Act on this session from now on when a call names none (a Playwright worker’s, say); made from the starting scenario on first use.',
  listSessions: 'The sessions the sandbox holds, most recently used first.',
  listScenarios: 'The scenarios resetSession takes, with what each holds.',
  resetSession:
    'Back to the starting scenario, another scenario or seed, or a saved snapshot; the journal, fault rules and clock go too. Says which records it changed.',
  saveSnapshot: 'Kept under a name that resetSession { snapshot } starts any session from.',
  listCollections: 'Each collection’s record count in the session.',
  addFault:
    'Make the session’s matching requests, the app’s too, fail (status, a recorded example, networkError) or answer late (delayMs); times or probability. Tried in order.',
  listFaults: 'In the order they are tried, each with fired (answers it made) and remaining.',
  removeFault: 'Remove one fault rule of the session (id), or all of them (all: true).',
  getClock: 'Now, and its offset from real time.',
  setClock:
    'Set it (now), move it (advanceSeconds), or back to real time (real: true): tokens and timestamps follow.',
}

/** The control route of `method path`; a route the table does not have is a mistake here. */
function controlRoute(method: Method, path: string) {
  const route = controlRoutes.find((row) => row.method === method && row.path === path)
  if (!route) throw new Error(`Failed to find the control route ${method} ${path}`)
  return route
}

/** The fields of the route's body schema. */
function fieldsOf(method: Method, path: string): z.core.$ZodShape {
  const { body } = controlRoute(method, path)
  return body instanceof z.core.$ZodObject ? body._zod.def.shape : {}
}

/** A tool's name, route, effect and description; its title the route's summary. */
function described(name: string, route: `${Method} ${string}`, effect: ToolEffect) {
  const [method, path] = route.split(' ') as [Method, string]
  const title = documentedOperation(method, path).summary ?? name
  return { name, title, description: SAID[name]!, effect, route: { method, path } }
}

/** The tool of one control route: path parameters and body (but `session`) from its arguments. */
function routeTool(
  name: string,
  route: `${Method} ${string}`,
  effect: ToolEffect,
  options: { input?: z.core.$ZodShape; result?: (body: unknown) => Record<string, unknown> } = {},
): SandboxTool {
  const tool = described(name, route, effect)
  const { method, path } = tool.route
  const { body } = controlRoute(method, path)
  return {
    ...tool,
    input: z.strictObject({
      ...(options.input ?? fieldsOf(method, path)),
      session: sessionArgument,
    }),
    async run({ session: _, ...args }, call) {
      const sent = await call.send({
        method,
        url: fillPath(path, args),
        ...(body ? { body: args } : {}),
      })
      return controlResult(sent, options.result)
    },
  }
}

const sessionOnly = z.strictObject({ session: sessionArgument })
const write = (destructive: boolean, idempotent: boolean) => ({ destructive, idempotent })

const controlTools: readonly SandboxTool[] = [
  {
    ...described('listPersonas', 'GET /__sandbox/personas', 'read'),
    input: sessionOnly,
    run: async (_, call) => toolResult({ personas: await listPersonas(call) }),
  },
  {
    name: 'signIn',
    title: 'Sign in as a persona',
    description: SAID.signIn!,
    effect: 'read',
    input: z.strictObject({ persona: z.string().min(1), session: sessionArgument }),
    run: async (args, call) => toolResult(await signInAs(call, String(args.persona))),
  },
  {
    name: 'getSession',
    title: 'Name the session and the sandbox’s URL',
    description: SAID.getSession!,
    effect: 'read',
    input: sessionOnly,
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
    title: 'Use a session',
    description: SAID.useSession!,
    effect: write(false, true),
    input: z.strictObject({ session: sessionArgument.unwrap() }),
    async run(args, call) {
      call.connection.chosenSession = String(args.session)
      return toolResult({ session: call.session, url: call.connection.backend.url })
    },
  },
  routeTool('listSessions', 'GET /__sandbox/sessions', 'read', {
    result: (sessions) => ({ sessions }),
  }),
  routeTool('listScenarios', 'GET /__sandbox/scenarios', 'read', {
    result: (scenarios) => ({ scenarios }),
  }),
  {
    ...routeTool('resetSession', 'POST /__sandbox/reset', write(true, true)),
    async run({ session: _, ...body }, call) {
      const headers = { [CHANGES_HEADER]: 'true' }
      const answer = await call.send({ method: 'POST', url: '/__sandbox/reset', body, headers })
      const changes = answer.headers.get(CHANGES_HEADER)
      return controlResult(answer, (reset) => ({
        ...(reset as object),
        ...(changes ? { changes: decodeChanges(changes) } : {}),
      }))
    },
  },
  routeTool('saveSnapshot', 'POST /__sandbox/snapshots', write(true, true)),
  routeTool('listCollections', 'GET /__sandbox/collections', 'read', {
    result: (counts) => ({ counts }),
  }),
  ...collectionTools,
  routeTool('addFault', 'POST /__sandbox/faults', write(false, false), {
    input: { ...faultRuleSchema.shape, path: z.string().describe('/bookings/:id/decline') },
  }),
  routeTool('listFaults', 'GET /__sandbox/faults', 'read', { result: (rules) => ({ rules }) }),
  {
    ...described('removeFault', 'DELETE /__sandbox/faults/{id}', write(true, true)),
    input: z
      .strictObject({
        id: z.string().min(1).optional(),
        all: z.literal(true).optional(),
        session: sessionArgument,
      })
      .refine((value) => (value.id === undefined) !== (value.all === undefined), {
        message: 'give id (listFaults) or all: true',
        path: ['id'],
      }),
    async run({ id }, call) {
      const url = `/__sandbox/faults${id === undefined ? '' : `/${encodeURIComponent(String(id))}`}`
      const removed = await call.send({ method: 'DELETE', url })
      return controlResult(removed, () => ({ removed: id ?? 'all' }))
    },
  },
  routeTool('getClock', 'GET /__sandbox/clock', 'read'),
  {
    ...described('setClock', 'POST /__sandbox/clock', write(true, false)),
    input: z
      .strictObject({
        ...fieldsOf('POST', '/__sandbox/clock'),
        real: z.literal(true).optional(),
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
