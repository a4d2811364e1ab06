/**
 * @module
 * The check of an answer of an operation of your own against its declared response schema, on
 * every answer: in Node, ajv's validator compiled from the schema's JSON Schema (about 40 times
 * quicker than zod on a page of 20 records), loaded when the first such operations are assembled;
 * zod's until it is, in a browser (no ajv chunk in an app's bundle), for the verdict when ajv
 * refuses (its own semantics win) and for the message.
 */
import { z } from '../model/zod.ts'
import type { Schema } from './user-operation.ts'

type Quick = (value: unknown) => boolean
let compile: ((schema: Schema) => Quick) | undefined
let loading = false
/** What the check needs of `ajv/dist/2020.js`. */
type AjvModule = {
  Ajv2020: new (options: object) => { compile(schema: object): (value: unknown) => boolean }
}
let loadAjv: (() => Promise<AjvModule>) | undefined

/** Given by the Node entries: how to load ajv, when operations of your own come. */
export function quickChecksWith(load: () => Promise<AjvModule>): void {
  loadAjv ??= load
}

/** Starts loading ajv, once, where an entry said how. */
export function loadQuickChecks(): void {
  if (loading || !loadAjv) return
  loading = true
  void loadAjv().then(
    ({ Ajv2020 }) => {
      const ajv = new Ajv2020({ strict: false, validateFormats: false })
      compile = (schema) => {
        try {
          const { $schema: _, ...json } = z.toJSONSchema(schema, {
            io: 'input',
            unrepresentable: 'any',
          }) as Record<string, unknown>
          return ajv.compile(json)
        } catch {
          return (value) => z.safeParse(schema, value).success
        }
      }
    },
    () => undefined,
  )
}

/** What `schema` refuses in an answer's body: zod's issues, none when it accepts it. */
export function answerCheck(schema: Schema): (body: unknown) => z.core.$ZodIssue[] | undefined {
  let quick: Quick | undefined
  return (body) => {
    quick ??= compile?.(schema)
    if (quick?.(body)) return undefined
    const result = z.safeParse(schema, body)
    return result.success ? undefined : result.error.issues
  }
}
