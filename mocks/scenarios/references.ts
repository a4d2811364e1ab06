/**
 * @module
 * The check that every reference (`references` of the collection definitions) resolves: a
 * booking whose `hostId` is no user is an error, and a key made of fields is made of them.
 */
import { type CollectionName, collectionDefinitions, references } from '../model/schemas.ts'

/** `checkoutSessions` -> `checkout session`: how a problem names a record of the collection. */
const singular = (name: CollectionName) =>
  name === 'outbox'
    ? 'outbox message'
    : name.replace(/s$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)

/** The referencing fields that are a plain field of the record: no `.`, no `[]`. */
const PLAIN = new Set(
  Object.values(references)
    .flatMap((list) => list.map(({ field }) => field))
    .filter((field) => !field.includes('.') && !field.includes('[]')),
)

/** Each value at `field` with its printed path: `partyIds[1]`, `signatures[0].userId`. */
function valuesAt(record: unknown, field: string): [string, unknown][] {
  const [head, ...rest] = field.split('.')
  const value = (record as Record<string, unknown>)[head!.replace('[]', '')]
  const name = head!.replace('[]', '')
  if (!head!.endsWith('[]')) {
    return rest.length === 0
      ? [[name, value]]
      : valuesAt(value, rest.join('.')).map(([path, v]) => [`${name}.${path}`, v])
  }
  if (!Array.isArray(value)) return []
  return value.flatMap((item, index): [string, unknown][] =>
    rest.length === 0
      ? [[`${name}[${index}]`, item]]
      : valuesAt(item, rest.join('.')).map(([path, v]) => [`${name}[${index}].${path}`, v]),
  )
}

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
  for (const { field, target } of references[collection] ?? []) {
    // A plain field (most references) is read as it is, its path not taken apart.
    if (PLAIN.has(field)) check(field, (record as Record<string, unknown>)[field], target)
    else for (const [path, value] of valuesAt(record, field)) check(path, value, target)
  }
  const { key, parts } = collectionDefinitions[collection]
  const fields = record as Record<string, unknown>
  const expected = parts?.map((part) => fields[part]).join(':')
  if (parts && fields[key] !== undefined && fields[key] !== expected)
    problems.push(`${label}.${key}: expected "${expected}", got "${fields[key]}"`)
  return problems
}
