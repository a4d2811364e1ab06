/**
 * @module
 * The control API's bodies, queries and path parameters as zod schemas; the merged document's
 * control schemas are generated from them (`scripts/spec/control-schemas.ts`). A refinement JSON Schema
 * cannot read back is restated in `.meta()` (`oneOf`, `not`); a test holds both to one verdict.
 */
import { z } from '../model/zod.ts'
import { NAME_PATTERN, NAME_RULE } from './scenario-files.ts'
import { SESSION_ID, SESSION_ID_RULE } from './session-id.ts'
import { MAX_ADVANCE_SECONDS } from './sessions.ts'

const sessionIdSchema = z.string().check(z.regex(SESSION_ID, SESSION_ID_RULE))

const nameSchema = z.string().check(z.regex(NAME_PATTERN, `must be ${NAME_RULE}`))

/** `POST /__sandbox/reset`: a scenario and seed, or a saved snapshot, or nothing (the start). */
export const resetBodySchema = z
  .strictObject({
    scenario: z.optional(nameSchema),
    seed: z.optional(z.number().check(z.int(), z.gte(0))),
    snapshot: z.optional(nameSchema),
  })
  .check(
    z.refine(
      (body) =>
        body.snapshot === undefined || (body.scenario === undefined && body.seed === undefined),
      { message: 'give either snapshot, or scenario and seed' },
    ),
    z.meta({
      not: { required: ['snapshot'], anyOf: [{ required: ['scenario'] }, { required: ['seed'] }] },
    }),
  )

/**
 * `POST /__sandbox/clock`: set the session's clock, or move it, within the years 1970 to 9999
 * (`SessionClocks` also refuses an advance or an offset that takes it out of them).
 */
export const clockBodySchema = z
  .strictObject({
    now: z.optional(
      z
        .string()
        .check(
          z.regex(/^(19[7-9]\d|[2-9]\d{3})-/, 'must be in the years 1970 to 9999'),
          z.iso.datetime({ offset: true }),
        ),
    ),
    advanceSeconds: z.optional(
      z.number().check(z.gte(-MAX_ADVANCE_SECONDS), z.lte(MAX_ADVANCE_SECONDS)),
    ),
  })
  .check(
    z.refine((body) => (body.now === undefined) !== (body.advanceSeconds === undefined), {
      message: 'give exactly one of now, advanceSeconds',
    }),
    z.meta({ oneOf: [{ required: ['now'] }, { required: ['advanceSeconds'] }] }),
  )

export const saveSnapshotBodySchema = z.strictObject({
  name: nameSchema,
  replace: z.optional(z.boolean()),
})

/** `?session=` of the journal's views: 1 to 64 characters, so an empty one is refused. */
export const journalSessionQuerySchema = z.object({ session: z.optional(sessionIdSchema) })

/** `GET /__sandbox/requests`: the session, how many of the newest entries, the app's only. */
export const journalQuerySchema = z.extend(journalSessionQuerySchema, {
  limit: z.optional(
    z.string().check(z.regex(/^[1-9]\d{0,6}$/, 'must be a whole number from 1 to 9999999')),
  ),
  app: z.optional(z.enum(['true', 'false'])),
})

export const snapshotParamsSchema = z.object({ name: nameSchema })
export const sessionParamsSchema = z.object({ id: sessionIdSchema })
/** A fault rule's id follows the session id's rule. */
export const faultParamsSchema = z.object({ id: sessionIdSchema })
