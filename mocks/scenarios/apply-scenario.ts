/**
 * @module
 * Applies a scenario file's `add`, `change`, `remove` to the records it extends, each touched
 * record and every reference checked: every problem, or the new records, never half of them.
 */
import {
  type CollectionName,
  collectionDefinitions,
  collectionNames,
  type DataSet,
} from '../model/schemas.ts'
import { describeIssue } from './describe-issue.ts'
import { fieldsAt, strictSchemas } from './record-schemas.ts'
import { checkReferences } from './references.ts'
import type { ScenarioFile } from './scenario-file.ts'

interface Entry {
  record: object
  /** How problems name the record: `bookings[3]` (added) or `bookings[bkg_pending]`. */
  label: string
}

export type ApplyResult = { ok: true; data: DataSet } | { ok: false; problems: string[] }

const keyOf = (name: CollectionName) => collectionDefinitions[name].key as string

/**
 * The records `file` describes on top of `base` (whose arrays it does not modify).
 * Problems read `<collection>[<index or key>].<field>: <problem>`, without the file name.
 */
export function applyScenario(base: DataSet, file: ScenarioFile): ApplyResult {
  const problems: string[] = []
  const schemas = strictSchemas()
  const tables = {} as Record<CollectionName, Map<string, Entry>>
  for (const name of collectionNames) {
    const key = keyOf(name)
    const table = new Map<string, Entry>()
    for (const record of base[name] as Record<string, unknown>[]) {
      const id = String(record[key])
      table.set(id, { record, label: `${name}[${id}]` })
    }
    tables[name] = table
  }

  const validate = (name: CollectionName, values: unknown, label: string): object | undefined => {
    const schema = schemas[name]
    const parsed = schema.safeParse(values, { reportInput: true })
    if (parsed.success) return parsed.data
    for (const issue of parsed.error.issues)
      problems.push(...describeIssue(issue, label, (path) => fieldsAt(schema, path)))
    return undefined
  }

  for (const name of collectionNames) {
    const key = keyOf(name)
    for (const [index, values] of (file.add?.[name] ?? []).entries()) {
      const label = `${name}[${index}]`
      const record = validate(name, values, label) as Record<string, unknown> | undefined
      if (!record) continue
      const id = String(record[key])
      const existing = tables[name].get(id)
      if (existing) {
        problems.push(
          `${label}.${key}: "${id}" already exists (${existing.label}); use change to modify it`,
        )
        continue
      }
      tables[name].set(id, { record, label })
    }
  }

  for (const name of collectionNames) {
    const key = keyOf(name)
    for (const [index, values] of (file.change?.[name] ?? []).entries()) {
      const { id: alias, ...fields } = values as Record<string, unknown>
      const id = key === 'id' ? alias : (fields[key] ?? alias)
      if (typeof id !== 'string' || id === '') {
        problems.push(`change.${name}[${index}]: name the record with its ${key}`)
        continue
      }
      const label = `${name}[${id}]`
      const existing = tables[name].get(id)
      if (!existing) {
        problems.push(`change.${name}[${index}].${key}: no record "${id}" to change`)
        continue
      }
      if (key !== 'id' && alias !== undefined) delete fields.id
      const record = validate(name, { ...existing.record, ...fields, [key]: id }, label)
      if (record) tables[name].set(id, { record, label })
    }
  }

  for (const name of collectionNames) {
    for (const [index, id] of (file.remove?.[name] ?? []).entries()) {
      if (!tables[name].delete(id)) {
        problems.push(`remove.${name}[${index}]: no record "${id}" to remove`)
      }
    }
  }

  const exists = (target: CollectionName, id: string) => tables[target].has(id)
  for (const name of collectionNames) {
    for (const { record, label } of tables[name].values())
      problems.push(...checkReferences(name, record, label, exists))
  }
  if (problems.length > 0) return { ok: false, problems }

  const data = {} as Record<CollectionName, object[]>
  for (const name of collectionNames) {
    data[name] = [...tables[name].values()].map((entry) => entry.record)
  }
  return { ok: true, data: data as DataSet }
}
