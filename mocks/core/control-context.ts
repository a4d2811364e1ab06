/**
 * @module
 * What the control API needs of a sandbox: a narrow view the core gives it, so the control
 * API does not depend on the core that calls it.
 */
import type { Persona, Scenario } from '../model/content.ts'
import type { Store } from '../model/store.ts'
import type { SessionClocks } from './clock.ts'
import type { ResetResult } from './events.ts'
import type { FaultRegistry } from './faults.ts'
import type { RequestJournal } from './journal.ts'
import type { Operation } from './operation.ts'
import type { ResetOptions, SandboxSettings, SandboxUsage } from './sandbox-types.ts'
import type { SavedSnapshots } from './saved-snapshots.ts'
import type { ScenarioInputs } from './scenario-files.ts'

/** A session in memory, with the scenario and seed it started from. */
export interface SessionSummary {
  id: string
  scenario: string
  seed: number
}

export interface ControlContext {
  readonly ready: Promise<void>
  readonly settings: SandboxSettings
  readonly personas: readonly Persona[]
  readonly operations: readonly Operation[]
  readonly scenarios: Readonly<Record<string, Scenario>>
  readonly journal: RequestJournal
  readonly faults: FaultRegistry
  readonly clocks: SessionClocks
  readonly snapshots: SavedSnapshots
  readonly openapiDocument: (() => unknown) | undefined
  reset(options?: ResetOptions): Promise<ResetResult>
  store(session?: string): Promise<Store>
  addScenarios(inputs: ScenarioInputs): Scenario[]
  sessionIds(): string[]
  describeSessions(): SessionSummary[]
  dropSession(session: string): void
  usage(): SandboxUsage
}
