/**
 * @module
 * The control routes of content and session state: health, personas, scenarios, reset,
 * snapshots, collections (the rest of the table is in `control-table.ts`).
 */
import { type CollectionName, collectionNames } from '../model/schemas.ts'
import { z } from '../model/zod.ts'
import type { ControlRoute } from './control.ts'
import { resetBodySchema, saveSnapshotBodySchema, snapshotParamsSchema } from './control-schemas.ts'
import { badRequest, notFound } from './errors.ts'
import { jsonResponse, noContent } from './http.ts'
import type { ResetOptions } from './sandbox-types.ts'
import { ScenarioError } from './scenario-files.ts'

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

export const stateRoutes: readonly ControlRoute[] = [
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
        sandbox.personas.map((persona) =>
          Object.fromEntries(PERSONA_FIELDS.map((field) => [field, persona[field]])),
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
      // A JSON body has no `undefined` values: what zod leaves out is absent.
      const options = body as Omit<ResetOptions, 'session'>
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
      return noContent()
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
]
