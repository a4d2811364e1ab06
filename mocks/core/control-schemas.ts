/**
 * @module
 * The control API's bodies, queries and path parameters as zod schemas; the merged document's
 * control schemas are generated from them (`spec/control-schemas.ts`). A refinement JSON Schema
 * cannot read back is restated in `.meta()` (`oneOf`, `not`); a test holds both to one verdict.
 */
import { z } from 'zod'
import { FAULT_ID_PATTERN, FAULT_ID_RULE } from './fault-rules.ts'
import { NAME_PATTERN, NAME_RULE } from './scenario-files.ts'
import { SESSION_ID, SESSION_ID_RULE } from './session-id.ts'

/** A session id, as `?session=` and `DELETE /__sandbox/sessions/{id}` take it. */
export const sessionIdSchema = z.string().regex(SESSION_ID, SESSION_ID_RULE)

/** A scenario's or a saved snapshot's name. */
export const nameSchema = z.string().regex(NAME_PATTERN, `must be ${NAME_RULE}`)

/** `POST /__sandbox/reset`: a scenario and seed, or a saved snapshot, or nothing (the start). */
export const resetBodySchema = z
  .strictObject({
    scenario: nameSchema.optional(),
    seed: z.number().int().nonnegative().optional(),
    snapshot: nameSchema.optional(),
  })
  .refine(
    (body) =>
      body.snapshot === undefined || (body.scenario === undefined && body.seed === undefined),
    { message: 'give either snapshot, or scenario and seed' },
  )
  .meta({
    not: { required: ['snapshot'], anyOf: [{ required: ['scenario'] }, { required: ['seed'] }] },
  })

/** `POST /__sandbox/clock`: set the session's clock, or move it. */
export const clockBodySchema = z
  .strictObject({
    now: z.iso.datetime({ offset: true }).optional(),
    advanceSeconds: z.number().finite().optional(),
  })
  .refine((body) => (body.now === undefined) !== (body.advanceSeconds === undefined), {
    message: 'give exactly one of now, advanceSeconds',
  })
  .meta({ oneOf: [{ required: ['now'] }, { required: ['advanceSeconds'] }] })

/** `POST /__sandbox/snapshots`. */
export const saveSnapshotBodySchema = z.strictObject({
  name: nameSchema,
  replace: z.boolean().optional(),
})

/** `?session=` of the journal's views: 1 to 64 characters, so an empty one is refused. */
export const journalSessionQuerySchema = z.object({ session: sessionIdSchema.optional() })

/** `GET /__sandbox/requests`: the session, and how many of the newest entries. */
export const journalQuerySchema = journalSessionQuerySchema.extend({
  limit: z
    .string()
    .regex(/^[1-9]\d{0,6}$/, 'must be a whole number from 1 to 9999999')
    .optional(),
})

export const snapshotParamsSchema = z.object({ name: nameSchema })
export const sessionParamsSchema = z.object({ id: sessionIdSchema })
export const faultParamsSchema = z.object({ id: z.string().regex(FAULT_ID_PATTERN, FAULT_ID_RULE) })
