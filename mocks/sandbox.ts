/**
 * @module
 * The sandbox every entry creates: the core with the built-in content (operations, personas,
 * scenarios, scenario files), the record factories and, when asked for, recorded answers.
 */
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
import { Sandbox as CoreSandbox } from './core/sandbox.ts'
import type { SandboxOptions as CoreSandboxOptions, SandboxContent } from './core/sandbox-types.ts'
import { createFactories, type Factories } from './factories/create-factories.ts'
import { operations } from './operations/table.ts'
import { createReplay, type Replay, type ReplayOptions } from './recordings/replay.ts'
import { replayStage } from './recordings/replay-stage.ts'
import { exportSnapshot } from './scenarios/export-snapshot.ts'
import { rebuildSnapshot } from './scenarios/rebuild-snapshot.ts'
import { resolveScenarios } from './scenarios/scenario-inputs.ts'

export { CONTROL_PREFIX } from './core/control-table.ts'
export type {
  OperationEvent,
  ResetOptions,
  ResetResult,
  SandboxContent,
} from './core/sandbox-types.ts'
export { SESSION_COOKIE, SESSION_HEADER } from './core/session-id.ts'

export interface SandboxOptions extends CoreSandboxOptions {
  /**
   * Recorded answers (HAR or examples) layered in front of the operations, after the
   * control API and the fault rules, before any other stage.
   */
  replay?: ReplayOptions | Replay | undefined
}

/** The built-in content: the reference's operations, personas and scenarios. */
export const builtInContent: SandboxContent = {
  operations,
  personas,
  scenarios,
  defaultSeed: DEFAULT_SEED,
  scenarioFiles: { resolve: resolveScenarios, exportSnapshot, rebuildSnapshot },
}

/** The core sandbox with the built-in content, recorded answers and record factories. */
export class Sandbox extends CoreSandbox {
  /** The recorded answers layered in front of the operations, if any. */
  readonly replay: Replay | undefined
  /**
   * One factory per collection: `factories.bookings({ hostId: 'usr_host' }, { session })`
   * creates a valid record with seeded defaults in the session and returns it.
   */
  readonly factories: Factories

  constructor(options: SandboxOptions = {}) {
    const { replay: recorded, ...rest } = options
    const replay =
      recorded === undefined || 'answer' in recorded ? recorded : createReplay(recorded)
    const stages = replay ? [replayStage(replay), ...(rest.stages ?? [])] : rest.stages
    super(builtInContent, { ...rest, stages })
    this.replay = replay
    const { seed, now } = this.settings
    this.factories = createFactories({ store: (session) => this.store(session), seed, now })
  }
}

/**
 * Creates a sandbox with the built-in content.
 *
 * @example
 * const sandbox = createSandbox({ scenario: 'default', seed: 7 })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options)
}
