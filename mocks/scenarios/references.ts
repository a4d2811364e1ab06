/**
 * @module
 * The check that every reference (`references` of the collection definitions) resolves: a
 * booking whose `hostId` is no user is an error, and a key made of fields is made of them.
 */
import type { CollectionName } from '../model/schemas.ts'
import { collectionDefinitions, keyParts, references } from '../model/schemas.ts'

/** `checkoutSessions` -> `checkout session`: how a problem names a record of the collection. */
const singular = (name: CollectionName) =>
  name === 'outbox'
    ? 'outbox message'
    : name.replace(/s$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)

type Fields = Record<string, unknown>

/**
 * Problems with one record's references, each `<label>.<field>: no <target> "<id>"`.
 * `exists(target, id)` says whether the target record is there.
 */
export function checkReferences(
  collection: CollectionName,
  record: unknown,
  label: string,
  exists: (target: CollectionName, id: string) => boolean,
): string[] {
  const problems: string[] = []
  const check = (path: string, value: unknown, target: CollectionName) => {
    if (value === null || value === undefined) return
    if (!exists(target, String(value)))
      problems.push(`${label}.${path}: no ${singular(target)} "${String(value)}"`)
  }
  const fields = record as Fields
  for (const { field, target } of references[collection] ?? []) {
    // A plain field (most references) is read as it is, its path not taken apart.
    if (!field.includes('[]')) check(field, fields[field], target)
    else {
      // Each item of a list (`partyIds[]`), or a field of each (`signatures[].userId`).
      const [list, by] = field.split('[]') as [string, string]
      const items = fields[list]
      if (!Array.isArray(items)) continue
      for (const [index, item] of items.entries()) {
        check(`${list}[${index}]${by}`, by ? (item as Fields | null)?.[by.slice(1)] : item, target)
      }
    }
  }
  const [key, parts] = [collectionDefinitions[collection].key, keyParts[collection]]
  const expected = parts?.map((part) => fields[part as string]).join(':')
  if (parts && fields[key] !== undefined && fields[key] !== expected)
    problems.push(`${label}.${key}: expected "${expected}", got "${fields[key]}"`)
  return problems
}
