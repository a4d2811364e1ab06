/**
 * @module
 * The quick check of `core/answer-check.ts`, for Node only (the Node runtimes hand it in): ajv's validator of a zod schema's JSON
 * Schema (formats and refinements left to zod, which decides when this refuses).
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { Schema } from '../core/index.ts'
import { z } from '../model/zod.ts'

const ajv = new Ajv2020({ strict: false, validateFormats: false })

/** A validator of `schema`; zod's own when it has no JSON Schema. */
export function compileQuick(schema: Schema): (value: unknown) => boolean {
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
