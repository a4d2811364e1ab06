/**
 * @module
 * The check of an answer of an operation of your own against its declared response schema, on
 * every answer: in Node, a validator compiled by ajv from the schema's JSON Schema (about 40 times
 * quicker than zod on a page of 20 records; `mocks/adapters/quick-check.ts`, loaded by the Node entries when the
 * first such operations are assembled); zod's until it is and in a browser (no ajv in an app's
 * bundle), for the verdict when the quick one refuses (zod's semantics win) and for the message.
 */
import { z } from '../model/zod.ts'
import type { Schema } from './user-operation.ts'

type Quick = (value: unknown) => boolean
/** What a Node entry loads: `mocks/adapters/quick-check.ts`. */
export type QuickCompiler = { compileQuick(schema: Schema): Quick }
let compiler: QuickCompiler | undefined
let load: (() => Promise<QuickCompiler>) | undefined
let loading = false

/** Given by the Node entries: how to load the quick checks, when operations of your own come. */
export function quickChecksWith(loader: () => Promise<QuickCompiler>): void {
  load ??= loader
}

/** Starts loading the quick checks, once, where an entry said how. */
export function loadQuickChecks(): void {
  if (loading || !load) return
  loading = true
  load().then(
    (loaded) => {
      compiler = loaded
    },
    () => undefined,
  )
}

/** What `schema` refuses in an answer's body: zod's issues, none when it accepts it. */
export function answerCheck(schema: Schema): (body: unknown) => z.core.$ZodIssue[] | undefined {
  let quick: Quick | undefined
  return (body) => {
    quick ??= compiler?.compileQuick(schema)
    if (quick?.(body)) return undefined
    const result = z.safeParse(schema, body)
    return result.success ? undefined : result.error.issues
  }
}
