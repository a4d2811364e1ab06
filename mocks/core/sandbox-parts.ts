/**
 * @module
 * The parts one sandbox is made of, shared by the modules that answer requests and
 * reset sessions.
 */
import type { Scenario } from '../model/content.ts'
import type { Snapshot } from '../model/store.ts'
import type { SessionClocks } from './clock.ts'
import type { SandboxEvents } from './events.ts'
import type { FaultRegistry } from './faults.ts'
import type { SessionJournals } from './journal.ts'
import type { PipelineSettings } from './pipeline.ts'
import type { SandboxSettings } from './sandbox-types.ts'
import type { SavedSnapshots } from './saved-snapshots.ts'
import type { SessionLog } from './session-log.ts'
import type { SessionRegistry } from './sessions.ts'
import type { SnapshotCache } from './snapshot-cache.ts'
import type { SandboxStage } from './stage.ts'

export interface SandboxParts {
  settings: SandboxSettings
  scenarios: Readonly<Record<string, Scenario>>
  sessions: SessionRegistry
  events: SandboxEvents
  journal: SessionJournals
  faults: FaultRegistry
  clocks: SessionClocks
  /** Stages plugged in before the model (recorded answers), in order. */
  stages: readonly SandboxStage[]
  cache: SnapshotCache
  saved: SavedSnapshots
  /** Resolves when the starting snapshot is built. */
  ready: Promise<void>
  /** The starting snapshot; only after `ready`. */
  starting(): Snapshot
  pipelineSettings: PipelineSettings
  /** The durable log of sessions, when the sandbox has one (`--state-dir`). */
  sessionLog: SessionLog | undefined
}
