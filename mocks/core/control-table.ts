/**
 * @module
 * Every route of the core under `/__sandbox`, declared once: method, path, access, schemas,
 * handler. A runtime adds the rows it answers itself (`controlRoutes`); 405, `Allow` and
 * `OPTIONS` come from the table, and a test holds the merged document's control paths to it.
 */
import { type CollectionName, collectionDefinitions, collectionNames } from '../model/schemas.ts'
import { z } from '../model/zod.ts'
import { CHANGES_HEADER, encodeChanges, storeChanges } from './change-summary.ts'
import type { ControlCall, ControlRoute } from './control.ts'
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
import { jsonResponse, noContent } from './http.ts'
import { answerPage, pageQuerySchema } from './paging.ts'
import type { ResetOptions } from './sandbox-types.ts'
import { ScenarioError } from './scenario-files.ts'
import { viewedSession } from './session-id.ts'

export { CONTROL_PREFIX, type ControlRoute, isControlPath } from './control.ts'

/** What `GET /__sandbox/personas` shows of a persona. */
const PERSONA_FIELDS = [
  'key',
  'publicId',
  'displayName',
  'email',
  'roles',
  'refreshToken',
  'idpCode',
] as const

/** The journal's session filter: the named session, or every session when none is named. */
const journalSession = ({ context }: ControlCall) => viewedSession(context)

/** A row: its route but the method and path of its key, `control` access unless it says. */
type ControlRow = Omit<ControlRoute, 'method' | 'path' | 'access'> & { access?: 'public' }

const rows: Record<`${ControlRoute['method']} /__sandbox${string}`, ControlRow> = {
  'GET /__sandbox/health': {
    access: 'public',
    async handle({ sandbox }) {
      await sandbox.ready
      return jsonResponse(200, {
        status: 'ok',
        scenario: sandbox.settings.scenario,
        seed: sandbox.settings.seed,
        usage: await sandbox.usage(),
        ...(sandbox.settings.lifetime ? { lifetime: sandbox.settings.lifetime } : {}),
      })
    },
  },
  'GET /__sandbox/personas': {
    handle: ({ sandbox }) =>
      jsonResponse(
        200,
        sandbox.personas.map((persona) =>
          Object.fromEntries(PERSONA_FIELDS.map((field) => [field, persona[field]])),
        ),
      ),
  },
  'GET /__sandbox/scenarios': {
    handle: ({ sandbox }) =>
      jsonResponse(
        200,
        Object.values(sandbox.scenarios).map(({ name, description }) => ({ name, description })),
      ),
  },
  'POST /__sandbox/scenarios': {
    body: z.unknown(),
    async handle({ sandbox, body }) {
      try {
        const scenario = await sandbox.uploadScenario(body)
        return jsonResponse(201, { name: scenario.name, description: scenario.description })
      } catch (error) {
        if (error instanceof ScenarioError)
          throw badRequest('Invalid scenario', [...error.problems])
        throw error
      }
    },
  },
  'POST /__sandbox/reset': {
    body: resetBodySchema,
    async handle({ sandbox, body, session, context }) {
      // A JSON body has no `undefined` values: what zod leaves out is absent.
      const options = body as Omit<ResetOptions, 'session'>
      const before = context.request.headers[CHANGES_HEADER] && (await sandbox.store(session))
      const answer = jsonResponse(200, await sandbox.reset({ ...options, session }))
      const after = before && storeChanges(before, await sandbox.store(session))
      if (after) answer.headers[CHANGES_HEADER] = encodeChanges(after)
      return answer
    },
  },
  'GET /__sandbox/snapshots': {
    handle: ({ sandbox }) => jsonResponse(200, sandbox.snapshots.list()),
  },
  'POST /__sandbox/snapshots': {
    body: saveSnapshotBodySchema,
    async handle({ sandbox, body, session }) {
      const { name, replace } = body as z.infer<typeof saveSnapshotBodySchema>
      return jsonResponse(201, await sandbox.snapshots.save(name, { session, replace }))
    },
  },
  'GET /__sandbox/snapshots/{name}': {
    params: snapshotParamsSchema,
    async handle({ sandbox, params }) {
      const answer = jsonResponse(200, await sandbox.snapshots.export(params.name!))
      answer.headers['content-disposition'] = `attachment; filename="${params.name}.json"`
      return answer
    },
  },
  'DELETE /__sandbox/snapshots/{name}': {
    params: snapshotParamsSchema,
    handle({ sandbox, params }) {
      sandbox.snapshots.get(params.name!)
      sandbox.snapshots.delete(params.name!)
      return noContent()
    },
  },
  'GET /__sandbox/collections': {
    async handle({ sandbox, session }) {
      const store = await sandbox.store(session)
      return jsonResponse(
        200,
        Object.fromEntries(collectionNames.map((name) => [name, store[name].count()])),
      )
    },
  },
  'GET /__sandbox/collections/{name}': {
    query: pageQuerySchema,
    async handle({ sandbox, session, params, query }) {
      const name = params.name!
      if (!(collectionNames as string[]).includes(name)) {
        throw notFound(`Unknown collection "${name}" (known: ${collectionNames.join(', ')})`)
      }
      const store = await sandbox.store(session)
      const fields = Object.keys(collectionDefinitions[name as CollectionName].schema.shape)
      return jsonResponse(200, answerPage(store[name as CollectionName].all(), query, fields))
    },
  },
  'GET /__sandbox/requests': {
    query: journalQuerySchema,
    async handle(call) {
      const session = journalSession(call)
      const asked = call.query.get('limit')
      // The merged view of every session is bounded by default; one session's is bounded already.
      const limit =
        asked !== null ? Number(asked) : session === undefined ? call.sandbox.journal.limit : 0
      const { shared } = call.sandbox.journal
      let entries = shared
        ? (await shared.list(session)).map(({ entry }) => entry)
        : call.sandbox.journal.list(session)
      // The app's requests only: without those the sandbox's own tools sent on their own.
      if (call.query.get('app') === 'true') entries = entries.filter((entry) => !entry.client)
      return jsonResponse(200, limit > 0 ? entries.slice(-limit) : entries)
    },
  },
  'DELETE /__sandbox/requests': {
    query: journalSessionQuerySchema,
    async handle(call) {
      await call.sandbox.journal.shared?.clear(journalSession(call))
      call.sandbox.journal.clear(journalSession(call))
      return noContent()
    },
  },
  'GET /__sandbox/requests.har': {
    query: journalSessionQuerySchema,
    async handle(call) {
      const only = journalSession(call)
      await call.sandbox.journal.loadHar?.()
      const host = call.context.headers.host
      const options = {
        ...(only === undefined ? {} : { session: only }),
        ...(host ? { baseUrl: `http://${host}` } : {}),
      }
      // With a shared store, every process's exchanges.
      const har = call.sandbox.journal.toHar(options, await call.sandbox.journal.shared?.list(only))
      return jsonResponse(200, har)
    },
  },
  'GET /__sandbox/openapi.json': {
    async handle({ sandbox }) {
      if (!sandbox.openapiDocument)
        throw notFound('The merged OpenAPI document is not available in this runtime')
      return jsonResponse(200, await sandbox.openapiDocument(sandbox.operations))
    },
  },
  'GET /__sandbox/sessions': {
    async handle({ sandbox, session }) {
      // The calling session is always listed; the others are read where they are, so that a
      // listing never brings an evicted session back (which would evict another, and so on).
      await sandbox.store(session)
      return jsonResponse(200, await sandbox.describeSessions(session))
    },
  },
  'DELETE /__sandbox/sessions/{id}': {
    params: sessionParamsSchema,
    handle({ sandbox, params }) {
      sandbox.dropSession(params.id!)
      return noContent()
    },
  },
  'GET /__sandbox/faults': {
    handle: async ({ sandbox, session }) =>
      jsonResponse(200, await sandbox.changeControl(session, () => sandbox.faults.list(session))),
  },
  'POST /__sandbox/faults': {
    body: z.unknown(),
    async handle({ sandbox, session, body }) {
      const store = await sandbox.store(session)
      const rule = await sandbox.changeControl(session, () =>
        sandbox.faults.add(session, body, {
          seed: store.snapshot.seed,
          operations: sandbox.operations,
          personaKeys: sandbox.personas.map((persona) => persona.key),
        }),
      )
      return jsonResponse(201, rule)
    },
  },
  'DELETE /__sandbox/faults/{id}': {
    params: faultParamsSchema,
    async handle({ sandbox, session, params }) {
      const removed = await sandbox.changeControl(session, () =>
        sandbox.faults.remove(session, params.id!),
      )
      if (!removed) throw notFound(`No fault rule "${params.id}" in session "${session}"`)
      return noContent()
    },
  },
  'DELETE /__sandbox/faults': {
    async handle({ sandbox, session }) {
      await sandbox.changeControl(session, () => sandbox.faults.clear(session))
      return noContent()
    },
  },
  'GET /__sandbox/clock': {
    handle: async ({ sandbox, session }) =>
      jsonResponse(200, await sandbox.changeControl(session, () => sandbox.clocks.state(session))),
  },
  'POST /__sandbox/clock': {
    body: clockBodySchema,
    async handle({ sandbox, session, body }) {
      const { now, advanceSeconds } = body as z.infer<typeof clockBodySchema>
      // The clock lives in the session's record: open it (from its log, with a state directory).
      await sandbox.store(session)
      await sandbox.changeControl(session, () =>
        now !== undefined
          ? sandbox.clocks.set(session, new Date(now))
          : sandbox.clocks.advance(session, advanceSeconds!),
      )
      return jsonResponse(200, sandbox.clocks.state(session))
    },
  },
  'DELETE /__sandbox/clock': {
    async handle({ sandbox, session }) {
      await sandbox.changeControl(session, () => sandbox.clocks.reset(session))
      return jsonResponse(200, sandbox.clocks.state(session))
    },
  },
}

/** Every route of the core under `/__sandbox`. */
export const controlRoutes: readonly ControlRoute[] = Object.entries(rows).map(([key, row]) => {
  const [method, path] = key.split(' ') as [ControlRoute['method'], string]
  return { method, path, access: 'control', ...row }
})
