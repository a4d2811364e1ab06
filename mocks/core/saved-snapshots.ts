/**
 * @module
 * The built snapshots of scenarios, shared by the sessions that start from them, and named
 * snapshots of a session's state: saved, reset to, listed, exported as a scenario file, deleted.
 */
import { invariant } from 'outvariant'
import type { Scenario } from '../model/content.ts'
import { collectionNames } from '../model/schemas.ts'
import { captureSnapshot, createSnapshot, type Snapshot, type Store } from '../model/store.ts'
import { badRequest, conflict, notFound } from './errors.ts'
import {
  NAME_PATTERN,
  NAME_RULE,
  ScenarioError,
  type ScenarioFile,
  type ScenarioFiles,
  snapshotChanges,
} from './scenario-files.ts'
import type { KeptByName, SavedSnapshotInfo, SavedSnapshotRecord } from './state-store.ts'

const SNAPSHOT_CACHE_SIZE = 4
/** Most snapshots saved at once: a name more is refused until one is deleted. */
export const MAX_SAVED_SNAPSHOTS = 100

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** Built on first use; a few are kept, the starting one always. */
export interface SnapshotCache {
  load(name: string, seed: number): Promise<Snapshot>
  /** Drops the built snapshots of a scenario, when it is replaced. */
  forget(name: string): void
}

export function createSnapshotCache(
  scenarios: Readonly<Record<string, Scenario>>,
  starting: { scenario: string; seed: number },
): SnapshotCache {
  const snapshots = new Map<string, Promise<Snapshot>>()
  const startingKey = `${starting.scenario}@${starting.seed}`
  return {
    load(name, seed) {
      const key = `${name}@${seed}`
      let snapshot = snapshots.get(key)
      if (!snapshot) {
        const scenario = Object.hasOwn(scenarios, name) ? scenarios[name] : undefined
        invariant(scenario, 'Failed to load scenario "%s": unknown', name)
        // Built in a task of its own rather than a microtask: a runtime that starts something
        // slow right after creating the sandbox (a Service Worker's registration) gets it going
        // first, and the build runs while that waits.
        snapshot = nextTask().then(() => createSnapshot(name, seed, scenario.build(seed)))
        snapshots.set(key, snapshot)
        snapshot.catch(() => snapshots.delete(key))
        for (const cached of snapshots.keys()) {
          if (snapshots.size <= SNAPSHOT_CACHE_SIZE) break
          if (cached !== startingKey && cached !== key) snapshots.delete(cached)
        }
      }
      return snapshot
    },
    forget(name) {
      for (const key of snapshots.keys()) if (key.startsWith(`${name}@`)) snapshots.delete(key)
    },
  }
}

export interface SaveSnapshotOptions {
  /** Default: `default`. */
  session?: string | undefined
  /** Without it, a name taken is a 409, so one test run cannot overwrite another's state. */
  replace?: boolean | undefined
}

interface Dependencies {
  store(session?: string): Promise<Store>
  /** Whether `name` is a scenario's: a snapshot may not take it (its export could not load). */
  isScenario(name: string): boolean
  loadSnapshot(scenario: string, seed: number): Promise<Snapshot>
  now(): Date
  files: Pick<ScenarioFiles, 'exportSnapshot' | 'rebuildSnapshot'>
  /** With a store: where they are kept. */
  kept?: KeptByName<SavedSnapshotRecord> | undefined
}

function checkSnapshotName(name: unknown): string {
  if (typeof name === 'string' && NAME_PATTERN.test(name)) return name
  throw badRequest('Invalid snapshot name', [
    `name must be ${NAME_RULE}, got ${JSON.stringify(name) ?? 'nothing'}`,
  ])
}

/** `sandbox.snapshots`. */
export class SavedSnapshots {
  readonly #saved = new Map<string, { snapshot: Snapshot; info: SavedSnapshotInfo }>()
  readonly #deps: Dependencies

  constructor(dependencies: Dependencies) {
    this.#deps = dependencies
  }

  /**
   * Saves the session's current state under `name`. Throws a 409 `SandboxError` when the
   * name is a scenario's, or a saved snapshot's unless `replace` is `true`.
   * @example
   * await sandbox.snapshots.save('after-checkout', { session: 'qa-1', replace: true })
   */
  save = async (name: string, options: SaveSnapshotOptions = {}): Promise<SavedSnapshotInfo> => {
    const { session, replace } = options
    checkSnapshotName(name)
    if (this.#deps.isScenario(name)) {
      throw conflict(
        `"${name}" is the name of a scenario: give the snapshot a name of its own (its export is a scenario file, loaded beside the scenarios)`,
      )
    }
    this.#checkFree(name, replace)
    const store = await this.#deps.store(session)
    // Another save of the name may have ended while this one waited for the store.
    this.#checkFree(name, replace)
    const snapshot = captureSnapshot(store, name)
    let records = 0
    for (const collection of collectionNames) records += snapshot.bases[collection].byKey.size
    const info: SavedSnapshotInfo = {
      name,
      scenario: snapshot.scenario,
      seed: snapshot.seed,
      session: session ?? 'default',
      savedAt: this.#deps.now().toISOString(),
      records,
    }
    // What a replacing save the store refuses puts back.
    const previous = this.#saved.get(name)
    this.#saved.delete(name)
    this.#saved.set(name, { snapshot, info })
    const { kept } = this.#deps
    try {
      // What `restore` takes back, kept before the save is answered.
      if (kept) {
        const changes = snapshotChanges(await this.export(name))
        await kept.save(
          name,
          { info, idSequence: snapshot.idSequence ?? 0, changes },
          { replace: replace === true },
        )
      }
    } catch (error) {
      this.#saved.delete(name)
      if (previous) this.#saved.set(name, previous)
      throw error
    }
    return info
  }

  list = (): SavedSnapshotInfo[] => [...this.#saved.values()].map(({ info }) => info)

  /** Throws a 404 `SandboxError` when unknown. */
  get = (name: string): Snapshot => this.#entry(name).snapshot

  delete = (name: string): boolean => {
    // The store first: a delete it refuses leaves the snapshot as it was.
    if (this.#saved.has(checkSnapshotName(name))) this.#deps.kept?.delete(name)
    return this.#saved.delete(name)
  }

  /** Lets go of the ones not in `names` here only (another process deleted them from the store). */
  keepOnly = (names: ReadonlySet<string>): void => {
    for (const name of this.#saved.keys()) if (!names.has(name)) this.#saved.delete(name)
  }

  /** The snapshot as a scenario file that `--scenario-file` loads back. */
  export = async (name: string): Promise<ScenarioFile> => {
    const { snapshot, info } = this.#entry(name)
    const origin = await this.#deps.loadSnapshot(snapshot.scenario, snapshot.seed)
    return this.#deps.files.exportSnapshot(snapshot, origin, {
      name,
      description: `Saved from session "${info.session}" at ${info.savedAt}, on top of "${info.scenario}" (seed ${info.seed})`,
    })
  }

  /** Throws a `ScenarioError` listing the record's problems. */
  restore = async ({
    info,
    idSequence,
    changes,
  }: SavedSnapshotRecord): Promise<SavedSnapshotInfo> => {
    const name = checkSnapshotName(info.name)
    let origin: Snapshot
    try {
      origin = await this.#deps.loadSnapshot(info.scenario, info.seed)
    } catch (error) {
      if (error instanceof ScenarioError) throw error
      throw new ScenarioError(`Failed to restore snapshot "${name}"`, [
        `scenario: "${info.scenario}" is not a scenario of this sandbox; load it with the same scenario files as when the snapshot was saved`,
      ])
    }
    const rebuilt = this.#deps.files.rebuildSnapshot(origin, changes, { name, idSequence })
    if (!rebuilt.ok)
      throw new ScenarioError(`Failed to restore snapshot "${name}"`, rebuilt.problems)
    this.#saved.delete(name)
    this.#saved.set(name, { snapshot: rebuilt.snapshot, info: { ...info, name } })
    return info
  }

  #entry(name: string) {
    const found = this.#saved.get(checkSnapshotName(name))
    if (found) return found
    const known = [...this.#saved.keys()]
    throw notFound(
      `Unknown snapshot "${name}" (${known.length > 0 ? `saved: ${known.join(', ')}` : 'none saved yet'})`,
    )
  }

  #checkFree(name: string, replace: boolean | undefined) {
    const taken = this.#saved.get(name)?.info
    if (!taken && this.#saved.size >= MAX_SAVED_SNAPSHOTS) {
      throw badRequest('Too many snapshots', [
        `the sandbox keeps at most ${MAX_SAVED_SNAPSHOTS} saved snapshots: delete one (DELETE /__sandbox/snapshots/{name}; GET /__sandbox/snapshots lists them) or replace one`,
      ])
    }
    if (taken && replace !== true) {
      throw conflict(
        `Snapshot name "${name}" is taken (saved from session "${taken.session}" at ${taken.savedAt}): save under another name, or with "replace": true to replace it`,
      )
    }
  }
}
