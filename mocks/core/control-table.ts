/**
 * @module
 * Every route under `/__sandbox`, declared once: method, path, access, schemas, handler. The
 * core answers the rows with a handler, the Node server's console the others; 405, `Allow` and
 * `OPTIONS` come from the table, and a test holds the merged document's control paths to it.
 */
import { z } from '../model/zod.ts'
import type { ControlCall, ControlRoute } from './control.ts'
import {
  clockBodySchema,
  faultParamsSchema,
  journalQuerySchema,
  journalSessionQuerySchema,
  sessionParamsSchema,
} from './control-schemas.ts'
import { stateRoutes } from './control-state-routes.ts'
import { badRequest, notFound } from './errors.ts'
import { cookiesOf, jsonResponse, noContent } from './http.ts'
import { createRouter } from './router.ts'
import { viewedSession } from './session-id.ts'

/** Where the control API is mounted on every runtime. */
export const CONTROL_PREFIX = '/__sandbox'

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

export type { ControlRoute } from './control.ts'

/** The journal's session filter: the named session, or every session when none is named. */
const journalSession = ({ request, query }: ControlCall) =>
  viewedSession(request.headers, query, cookiesOf(request))

/** Every route under `/__sandbox`. */
export const controlRoutes: readonly ControlRoute[] = [
  ...stateRoutes,
  {
    method: 'GET',
    path: '/__sandbox/requests',
    access: 'control',
    query: journalQuerySchema,
    handle(call) {
      const session = journalSession(call)
      const asked = call.query.get('limit')
      // The merged view of every session is bounded by default; one session's is bounded already.
      const limit =
        asked !== null ? Number(asked) : session === undefined ? call.sandbox.journal.limit : 0
      const entries = call.sandbox.journal.list(session)
      return jsonResponse(200, limit > 0 ? entries.slice(-limit) : entries)
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/requests',
    access: 'control',
    query: journalSessionQuerySchema,
    handle(call) {
      call.sandbox.journal.clear(journalSession(call))
      return noContent()
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/requests.har',
    access: 'control',
    query: journalSessionQuerySchema,
    handle(call) {
      const only = journalSession(call)
      const host = call.request.headers.host
      const har = call.sandbox.journal.toHar({
        ...(only === undefined ? {} : { session: only }),
        ...(host ? { baseUrl: `http://${host}` } : {}),
      })
      return jsonResponse(200, har)
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/openapi.json',
    access: 'control',
    async handle({ sandbox }) {
      if (!sandbox.openapiDocument)
        throw notFound('The merged OpenAPI document is not available in this runtime')
      return jsonResponse(200, await sandbox.openapiDocument())
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/sessions',
    access: 'control',
    async handle({ sandbox, session }) {
      // The calling session is always listed; the others are read where they are, so that a
      // listing never brings an evicted session back (which would evict another, and so on).
      await sandbox.store(session)
      return jsonResponse(200, sandbox.describeSessions())
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/sessions/{id}',
    access: 'control',
    params: sessionParamsSchema,
    handle({ sandbox, params }) {
      sandbox.dropSession(params.id!)
      return noContent()
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/faults',
    access: 'control',
    handle: ({ sandbox, session }) => jsonResponse(200, sandbox.faults.list(session)),
  },
  {
    method: 'POST',
    path: '/__sandbox/faults',
    access: 'control',
    body: z.unknown(),
    async handle({ sandbox, session, body }) {
      const store = await sandbox.store(session)
      const rule = sandbox.faults.add(session, body, {
        seed: store.snapshot.seed,
        operations: sandbox.operations,
        personaKeys: sandbox.personas.map((persona) => persona.key),
      })
      return jsonResponse(201, rule)
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/faults/{id}',
    access: 'control',
    params: faultParamsSchema,
    handle({ sandbox, session, params }) {
      if (!sandbox.faults.remove(session, params.id!)) {
        throw notFound(`No fault rule "${params.id}" in session "${session}"`)
      }
      return noContent()
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/faults',
    access: 'control',
    handle({ sandbox, session }) {
      sandbox.faults.clear(session)
      return noContent()
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/clock',
    access: 'control',
    handle: ({ sandbox, session }) => jsonResponse(200, sandbox.clocks.state(session)),
  },
  {
    method: 'POST',
    path: '/__sandbox/clock',
    access: 'control',
    body: clockBodySchema,
    async handle({ sandbox, session, body }) {
      const { now, advanceSeconds } = body as z.infer<typeof clockBodySchema>
      // The clock lives in the session's record: open it (from its log, with a state directory).
      await sandbox.store(session)
      if (now !== undefined) {
        const date = new Date(now)
        if (Number.isNaN(date.getTime()))
          throw badRequest('Validation failed', ['now is not a date'])
        sandbox.clocks.set(session, date)
      } else sandbox.clocks.advance(session, advanceSeconds!)
      return jsonResponse(200, sandbox.clocks.state(session))
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/clock',
    access: 'control',
    handle({ sandbox, session }) {
      sandbox.clocks.reset(session)
      return jsonResponse(200, sandbox.clocks.state(session))
    },
  },
  // The Node server's console: answered there, before the core (see server/console/).
  { method: 'GET', path: '/__sandbox/', access: 'public' },
  { method: 'GET', path: '/__sandbox/dashboard.js', access: 'public', asset: true },
  { method: 'GET', path: '/__sandbox/docs', access: 'public' },
  { method: 'GET', path: '/__sandbox/docs/scalar.js', access: 'public', asset: true },
  { method: 'GET', path: '/__sandbox/events', access: 'control', query: journalSessionQuerySchema },
  // The MCP endpoint of the Node server (server/mcp/): JSON-RPC over Streamable HTTP.
  { method: 'POST', path: '/__sandbox/mcp', access: 'control', mcp: true },
  { method: 'GET', path: '/__sandbox/mcp', access: 'control', mcp: true },
  { method: 'DELETE', path: '/__sandbox/mcp', access: 'control', mcp: true },
]

/** The rows without a handler: what the Node server's console serves itself. */
const consoleRouter = createRouter(
  controlRoutes
    .filter((route) => !route.handle)
    .map((route) => ({ method: route.method, path: route.path, value: route })),
)

/**
 * The console row of `method` and `path` (a full path), if it is one; a control call the
 * core answers is left to the core's router, which matches it once.
 */
export function matchConsoleRoute(method: string, path: string): ControlRoute | undefined {
  return consoleRouter(method, path)?.value
}
