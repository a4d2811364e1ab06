/**
 * @module
 * Named snapshots of a session's state: saved from any session, any session can be
 * reset to one (as cheaply as to a built-in scenario), listed, exported as a
 * scenario file and deleted. They live as long as the sandbox.
 */
import { captureSnapshot } from '../model/capture-snapshot.ts'
import { collectionNames } from '../model/schemas.ts'
import type { Snapshot, Store } from '../model/store.ts'
import { exportSnapshot } from '../scenarios/export-snapshot.ts'
import { NAME_PATTERN, NAME_RULE, type ScenarioFile } from '../scenarios/scenario-file.ts'
import { badRequest, notFound } from './errors.ts'

export interface SavedSnapshotInfo {
  name: string
  /** The scenario and seed the saved state descends from. */
  scenario: string
  seed: number
  /** The session it was saved from. */
  session: string
  savedAt: string
  records: number
}

export interface SavedSnapshots {
  /** Saves the session's current state under `name`, replacing a snapshot of that name. */
  save(name: string, options?: { session?: string }): Promise<SavedSnapshotInfo>
  list(): SavedSnapshotInfo[]
  /** The snapshot itself, for a reset. Throws a 404 `SandboxError` when unknown. */
  get(name: string): Snapshot
  /** Whether there was a snapshot of that name. */
  delete(name: string): boolean
  /** The snapshot as a scenario file that `--scenario-file` loads back. */
  export(name: string): Promise<ScenarioFile>
}

interface Dependencies {
  store(session?: string): Promise<Store>
  loadSnapshot(scenario: string, seed: number): Promise<Snapshot>
  now(): Date
}

/** Throws a 400 unless `name` is 1 to 64 letters, digits, `.`, `_` or `-`. */
export function checkSnapshotName(name: unknown): string {
  if (typeof name === 'string' && NAME_PATTERN.test(name)) return name
  throw badRequest('Invalid snapshot name', [
    `name must be ${NAME_RULE}, got ${JSON.stringify(name) ?? 'nothing'}`,
  ])
}

export function createSavedSnapshots(dependencies: Dependencies): SavedSnapshots {
  const saved = new Map<string, { snapshot: Snapshot; info: SavedSnapshotInfo }>()
  const entry = (name: string) => {
    const found = saved.get(checkSnapshotName(name))
    if (!found) {
      const known = [...saved.keys()]
      throw notFound(
        `Unknown snapshot "${name}" (${known.length > 0 ? `saved: ${known.join(', ')}` : 'none saved yet'})`,
      )
    }
    return found
  }
  return {
    async save(name, { session } = {}) {
      checkSnapshotName(name)
      const store = await dependencies.store(session)
      const snapshot = captureSnapshot(store, name)
      let records = 0
      for (const collection of collectionNames) records += snapshot.bases[collection].byKey.size
      const info: SavedSnapshotInfo = {
        name,
        scenario: snapshot.scenario,
        seed: snapshot.seed,
        session: session ?? 'default',
        savedAt: dependencies.now().toISOString(),
        records,
      }
      saved.delete(name)
      saved.set(name, { snapshot, info })
      return info
    },
    list: () => [...saved.values()].map(({ info }) => info),
    get: (name) => entry(name).snapshot,
    delete: (name) => saved.delete(checkSnapshotName(name)),
    async export(name) {
      const { snapshot, info } = entry(name)
      const origin = await dependencies.loadSnapshot(snapshot.scenario, snapshot.seed)
      return exportSnapshot(snapshot, origin, {
        name,
        description: `Saved from session "${info.session}" at ${info.savedAt}, on top of "${info.scenario}" (seed ${info.seed})`,
      })
    },
  }
}
