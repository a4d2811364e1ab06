/**
 * @module
 * Every route under `/__sandbox`, declared once: method, path, who may call it, the body it
 * reads and its handler. The core answers the routes that have a handler; the Node server's
 * console answers the others (its pages, their scripts and the live journal) from the same
 * table. 405 with `Allow` and `OPTIONS` come from the table, and a test holds the merged
 * document's control paths to it.
 */
import { type CollectionName, collectionNames } from '../model/schemas.ts'
import { z } from '../model/zod.ts'
import { ScenarioError } from '../scenarios/compile-scenarios.ts'
import type { ControlContext } from './control-context.ts'
import {
  clockBodySchema,
  faultParamsSchema,
  journalQuerySchema,
  journalSessionQuerySchema,
  resetBodySchema,
  saveSnapshotBodySchema,
  sessionParamsSchema,
  snapshotParamsSchema,
} from './control-schemas.ts'
import { badRequest, notFound } from './errors.ts'
import { cookiesOf, jsonResponse, type SandboxRequest, type SandboxResponse } from './http.ts'
import { createRouter } from './router.ts'
import { viewedSession } from './session-id.ts'

/** Where the control API is mounted on every runtime. */
export const CONTROL_PREFIX = '/__sandbox'

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

/**
 * Who may call a route: `public` always (a load balancer's health check); `control` needs
 * `Authorization: Bearer <control token>` when the sandbox has one, and is open otherwise.
 */
export type ControlAccess = 'public' | 'control'

/** One control call, as a handler is given it. */
export interface ControlCall {
  sandbox: ControlContext
  /** The session the request names (`default` when it names none). */
  session: string
  /** Path parameters, decoded. */
  params: Record<string, string>
  query: URLSearchParams
  request: SandboxRequest
  /** The body, read and checked against the route's `body` schema. */
  body: unknown
}

export interface ControlRoute {
  method: 'GET' | 'POST' | 'DELETE'
  /** The full path, with `{param}` segments, as the merged document names it. */
  path: string
  access: ControlAccess
  /** The JSON body it reads; absent for routes without a body. */
  body?: z.core.$ZodType
  /** Its path parameters (decoded), checked before the handler runs: 400 otherwise. */
  params?: z.ZodMiniObject
  /** The query parameters it reads, checked before the handler runs: 400 otherwise. */
  query?: z.ZodMiniObject
  /** Answers the call in every runtime. Absent for the Node server's console routes. */
  handle?: (call: ControlCall) => Promise<SandboxResponse> | SandboxResponse
  /** A script a console page loads: served, but not part of the API document. */
  asset?: true
  /**
   * The standalone server's MCP endpoint (Streamable HTTP): a protocol of its own, not an
   * operation of the API document.
   */
  mcp?: true
}

const NO_CONTENT = (): SandboxResponse => ({
  status: 204,
  headers: {},
  setCookie: [],
  body: undefined,
})

/** The journal's session filter: the named session, or every session when none is named. */
const journalSession = ({ request, query }: ControlCall) =>
  viewedSession(request.headers, query, cookiesOf(request))

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never
}

/** Every route under `/__sandbox`. */
export const controlRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/__sandbox/health',
    access: 'public',
    async handle({ sandbox }) {
      await sandbox.ready
      return jsonResponse(200, {
        status: 'ok',
        scenario: sandbox.settings.scenario,
        seed: sandbox.settings.seed,
        usage: sandbox.usage(),
      })
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/personas',
    access: 'control',
    handle: ({ sandbox }) =>
      jsonResponse(
        200,
        sandbox.personas.map(
          ({ key, publicId, displayName, email, roles, refreshToken, idpCode }) => ({
            key,
            publicId,
            displayName,
            email,
            roles,
            refreshToken,
            idpCode,
          }),
        ),
      ),
  },
  {
    method: 'GET',
    path: '/__sandbox/scenarios',
    access: 'control',
    handle: ({ sandbox }) =>
      jsonResponse(
        200,
        Object.values(sandbox.scenarios).map(({ name, description }) => ({ name, description })),
      ),
  },
  {
    method: 'POST',
    path: '/__sandbox/scenarios',
    access: 'control',
    body: z.unknown(),
    handle({ sandbox, body }) {
      try {
        const [scenario] = sandbox.addScenarios([body as never])
        return jsonResponse(201, { name: scenario!.name, description: scenario!.description })
      } catch (error) {
        if (error instanceof ScenarioError)
          throw badRequest('Invalid scenario', [...error.problems])
        throw error
      }
    },
  },
  {
    method: 'POST',
    path: '/__sandbox/reset',
    access: 'control',
    body: resetBodySchema,
    async handle({ sandbox, body, session }) {
      const options = stripUndefined(body as z.infer<typeof resetBodySchema>)
      return jsonResponse(200, await sandbox.reset({ ...options, session }))
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/snapshots',
    access: 'control',
    handle: ({ sandbox }) => jsonResponse(200, sandbox.snapshots.list()),
  },
  {
    method: 'POST',
    path: '/__sandbox/snapshots',
    access: 'control',
    body: saveSnapshotBodySchema,
    async handle({ sandbox, body, session }) {
      const { name, replace } = body as z.infer<typeof saveSnapshotBodySchema>
      return jsonResponse(201, await sandbox.snapshots.save(name, { session, replace }))
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/snapshots/{name}',
    access: 'control',
    params: snapshotParamsSchema,
    async handle({ sandbox, params }) {
      const answer = jsonResponse(200, await sandbox.snapshots.export(params.name!))
      answer.headers['content-disposition'] = `attachment; filename="${params.name}.json"`
      return answer
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/snapshots/{name}',
    access: 'control',
    params: snapshotParamsSchema,
    handle({ sandbox, params }) {
      sandbox.snapshots.get(params.name!)
      sandbox.snapshots.delete(params.name!)
      return NO_CONTENT()
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/collections',
    access: 'control',
    async handle({ sandbox, session }) {
      const store = await sandbox.store(session)
      return jsonResponse(
        200,
        Object.fromEntries(collectionNames.map((name) => [name, store[name].count()])),
      )
    },
  },
  {
    method: 'GET',
    path: '/__sandbox/collections/{name}',
    access: 'control',
    async handle({ sandbox, session, params }) {
      const name = params.name!
      if (!(collectionNames as string[]).includes(name)) {
        throw notFound(`Unknown collection "${name}" (known: ${collectionNames.join(', ')})`)
      }
      const store = await sandbox.store(session)
      return jsonResponse(200, store[name as CollectionName].all())
    },
  },
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
      return NO_CONTENT()
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
      return NO_CONTENT()
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
      return NO_CONTENT()
    },
  },
  {
    method: 'DELETE',
    path: '/__sandbox/faults',
    access: 'control',
    handle({ sandbox, session }) {
      sandbox.faults.clear(session)
      return NO_CONTENT()
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

export interface ControlMatch {
  route: ControlRoute
  /** Path parameters as sent (still percent-encoded). */
  params: Record<string, string>
}

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
