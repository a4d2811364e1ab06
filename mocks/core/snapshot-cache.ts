/**
 * @module
 * The built snapshots of scenarios, by name and seed: built once, shared by every
 * session that starts from them. A few are kept; the starting one is never dropped.
 */
import { invariant } from 'outvariant'
import type { Scenario } from '../model/content.ts'
import { createSnapshot, type Snapshot } from '../model/store.ts'

const SNAPSHOT_CACHE_SIZE = 4

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

export interface SnapshotCache {
  /** The snapshot of a scenario at a seed, built on first use. */
  load(name: string, seed: number): Promise<Snapshot>
  /** Drops the built snapshots of a scenario, when it is replaced. */
  forget(name: string): void
}

/**
 * @example
 * const cache = createSnapshotCache(scenarios, { scenario: 'default', seed: 7 })
 * const snapshot = await cache.load('default', 7)
 */
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
