/**
 * @module
 * A saved snapshot rebuilt from its changes on top of its origin: the origin's records stay
 * the same objects, so a reset to it costs what one to the origin costs.
 */
import type { SnapshotChanges } from '../core/scenario-files.ts'
import {
  type CollectionName,
  collectionDefinitions,
  collectionNames,
  type DataSet,
} from '../model/schemas.ts'
import { highestSequence, type Snapshot } from '../model/store.ts'
import { type BaseCollection, baseCollectionOf, deepFreeze } from '../model/table.ts'
import { applyScenario } from './apply-scenario.ts'

export { type SnapshotChanges, snapshotChanges } from '../core/scenario-files.ts'

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
  const bases = {} as Record<CollectionName, BaseCollection<object>>
  let sequence = Math.max(idSequence, origin.idSequence ?? 0)
  for (const collection of collectionNames) {
    const { schema, key } = collectionDefinitions[collection]
    const before = origin.bases[collection].byKey as ReadonlyMap<string, object>
    const touched =
      changes.add?.[collection] !== undefined ||
      changes.change?.[collection] !== undefined ||
      changes.remove?.[collection] !== undefined
    if (!touched) {
      bases[collection] = baseCollectionOf(schema, before)
      continue
    }
    const byKey = new Map<string, object>()
    for (const record of applied.data[collection] as Record<string, unknown>[]) {
      const id = String(record[key])
      byKey.set(id, before.get(id) === record ? record : deepFreeze(record))
    }
    sequence = Math.max(sequence, highestSequence(byKey.keys()))
    bases[collection] = baseCollectionOf(schema, byKey)
  }
  return {
    ok: true,
    snapshot: {
      scenario: origin.scenario,
      seed: origin.seed,
      bases: bases as Snapshot['bases'],
      idSequence: sequence,
      savedAs: name,
    },
  }
}
