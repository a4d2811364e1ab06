/**
 * @module
 * A saved snapshot as a scenario file extending its origin (with only what differs), and
 * rebuilt from such changes: the origin's records stay the same objects in both, so the
 * comparison rarely looks inside one, and a reset to it costs what one to the origin costs.
 */
import type { SnapshotChanges } from '../core/index.ts'

export { type SnapshotChanges, snapshotChanges } from '../core/index.ts'

import {
  type CollectionName,
  collectionDefinitions,
  collectionNames,
  type DataSet,
} from '../model/schemas.ts'
import { type Snapshot, snapshotOf } from '../model/store.ts'
import { applyScenario } from './apply-scenario.ts'
import type { ScenarioFile } from './scenario-file.ts'

export type RebuildResult = { ok: true; snapshot: Snapshot } | { ok: false; problems: string[] }

/**
 * `origin` with `changes` applied, saved as `name`. Problems read like a scenario
 * file's (`bookings[bkg_1].status: ...`), without the file name.
 */
export function rebuildSnapshot(
  origin: Snapshot,
  changes: SnapshotChanges,
  { name, idSequence = 0 }: { name: string; idSequence?: number },
): RebuildResult {
  const records = {} as Record<CollectionName, object[]>
  for (const collection of collectionNames)
    records[collection] = [...origin.bases[collection].byKey.values()]
  const applied = applyScenario(records as DataSet, { name, ...changes })
  if (!applied.ok) return applied
  const sequence = Math.max(idSequence, origin.idSequence ?? 0)
  return {
    ok: true,
    snapshot: snapshotOf(origin, name, sequence, (collection) =>
      changes.add?.[collection] !== undefined ||
      changes.change?.[collection] !== undefined ||
      changes.remove?.[collection] !== undefined
        ? applied.data[collection]
        : undefined,
    ),
  }
}

type Fields = Record<string, unknown>

/** The top-level fields of `record` that differ from `before` (compared as JSON). */
function changedFields(before: Fields, record: Fields): Fields {
  const fields: Fields = {}
  for (const [field, value] of Object.entries(record)) {
    if (JSON.stringify(value) !== JSON.stringify(before[field])) fields[field] = value
  }
  return fields
}

/**
 * The scenario file that rebuilds `saved` on top of `origin` (the snapshot of
 * `saved.scenario` at `saved.seed`).
 */
export function exportSnapshot(
  saved: Snapshot,
  origin: Snapshot,
  options: { name: string; description: string },
): ScenarioFile {
  const add: Record<string, unknown[]> = {}
  const change: Record<string, unknown[]> = {}
  const remove: Record<string, string[]> = {}
  const push = <T>(lists: Record<string, T[]>, name: string, item: T) => {
    const list = lists[name] ?? []
    list.push(item)
    lists[name] = list
  }
  for (const name of collectionNames) {
    const key = collectionDefinitions[name].key as string
    const before = origin.bases[name as CollectionName].byKey as ReadonlyMap<string, Fields>
    const after = saved.bases[name as CollectionName].byKey as ReadonlyMap<string, Fields>
    for (const [id, record] of after) {
      const previous = before.get(id)
      if (!previous) push(add, name, record)
      else if (previous !== record) {
        const fields = changedFields(previous, record)
        if (Object.keys(fields).length > 0) push(change, name, { [key]: id, ...fields })
      }
    }
    for (const id of before.keys()) if (!after.has(id)) push(remove, name, id)
  }
  const file: ScenarioFile = {
    name: options.name,
    description: options.description,
    extends: saved.scenario,
    seed: saved.seed,
  }
  if (Object.keys(add).length > 0) file.add = add as NonNullable<ScenarioFile['add']>
  if (Object.keys(change).length > 0) file.change = change as NonNullable<ScenarioFile['change']>
  if (Object.keys(remove).length > 0) file.remove = remove as NonNullable<ScenarioFile['remove']>
  return file
}
