/**
 * @module
 * The collection schemas made strict, nested objects included, so that a misspelt
 * field in a scenario record is an error instead of being dropped without a word.
 */
import { type CollectionName, collectionDefinitions, collectionNames } from '../model/schemas.ts'
import { z } from '../model/zod.ts'

type AnyObject = z.ZodMiniObject

function strictShape(schema: AnyObject): AnyObject {
  const shape: Record<string, z.ZodMiniType> = {}
  for (const [field, value] of Object.entries(schema.shape)) {
    if (value instanceof z.ZodMiniObject) shape[field] = strictShape(value)
    else if (value instanceof z.ZodMiniArray && value.def.element instanceof z.ZodMiniObject)
      shape[field] = z.array(strictShape(value.def.element))
    else shape[field] = value as z.ZodMiniType
  }
  return z.strictObject(shape)
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
  let current: z.ZodMiniType = schema
  for (const part of path) {
    if (typeof part === 'number') continue
    if (current instanceof z.ZodMiniArray) current = current.def.element as z.ZodMiniType
    if (!(current instanceof z.ZodMiniObject)) return []
    current = current.shape[String(part)] as z.ZodMiniType
  }
  if (current instanceof z.ZodMiniArray) current = current.def.element as z.ZodMiniType
  return current instanceof z.ZodMiniObject ? Object.keys(current.shape) : []
}
