/**
 * @module
 * The collection schemas made strict, nested objects included, so that a misspelt
 * field in a scenario record is an error instead of being dropped without a word.
 */
import { z } from 'zod'
import { type CollectionName, collectionDefinitions, collectionNames } from '../model/schemas.ts'

type AnyObject = z.ZodObject<z.ZodRawShape>

function strictShape(schema: AnyObject): AnyObject {
  const shape: Record<string, z.ZodType> = {}
  for (const [field, value] of Object.entries(schema.shape)) {
    if (value instanceof z.ZodObject) shape[field] = strictShape(value as AnyObject)
    else if (value instanceof z.ZodArray && value.element instanceof z.ZodObject)
      shape[field] = z.array(strictShape(value.element as AnyObject))
    else shape[field] = value as z.ZodType
  }
  return schema.extend(shape).strict()
}

let strict: Record<CollectionName, AnyObject> | undefined

/** The strict schema of each collection, built on first use. */
export function strictSchemas(): Record<CollectionName, AnyObject> {
  strict ??= Object.fromEntries(
    collectionNames.map((name) => [
      name,
      strictShape(collectionDefinitions[name].schema as unknown as AnyObject),
    ]),
  ) as Record<CollectionName, AnyObject>
  return strict
}

/** The fields a schema knows at `path` inside a record (array indexes skipped). */
export function fieldsAt(schema: AnyObject, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType = schema
  for (const part of path) {
    if (typeof part === 'number') continue
    if (current instanceof z.ZodArray) current = current.element as z.ZodType
    if (!(current instanceof z.ZodObject)) return []
    current = (current.shape as z.ZodRawShape)[String(part)] as z.ZodType
  }
  if (current instanceof z.ZodArray) current = current.element as z.ZodType
  return current instanceof z.ZodObject ? Object.keys(current.shape) : []
}
