/**
 * @module
 * `createSandbox`, what every entry creates: the core's one assembly given the built-in content
 * (the reference's operations, personas and scenarios: data) and its plug-ins: the record
 * factories, the journal's HAR writer and, when asked for one, a replay in front of the stages.
 */
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
import { writeJournalHar } from '../recordings/har.ts'
import { type Replay, type ReplayOptions, replayOf } from '../recordings/replay/replay.ts'
import { assembleSandbox } from './core/sandbox.ts'
import type { SandboxContent, SandboxCore, SandboxCoreOptions } from './core/sandbox-types.ts'
import { createFactories, type Factories } from './factories/create-factories.ts'
import { operations } from './operations/table.ts'
import { resolveScenarios } from './scenarios/scenario-inputs.ts'
import { exportSnapshot, rebuildSnapshot } from './scenarios/snapshot-file.ts'

export { CONTROL_PREFIX } from './core/control-table.ts'
export type {
  OperationEvent,
  ResetOptions,
  ResetResult,
  SandboxContent,
} from './core/sandbox-types.ts'
export { SESSION_COOKIE, SESSION_HEADER } from './core/session-id.ts'

export interface SandboxOptions extends SandboxCoreOptions {
  /** Recorded answers (HAR or examples) layered in front of the operations and other stages. */
  replay?: ReplayOptions | Replay | undefined
}

/** The sandbox with the built-in content, its record factories and a replay, if given. */
export interface Sandbox extends SandboxCore {
  /** The recorded answers layered in front of the operations, if any. */
  readonly replay: Replay | undefined
  /**
   * One factory per collection: `factories.bookings({ hostId: 'usr_host' }, { session })`
   * creates a valid record with seeded defaults in the session and returns it.
   */
  readonly factories: Factories
}

/** The built-in content: the reference's operations, personas and scenarios. */
export const builtInContent: SandboxContent = {
  operations,
  personas,
  scenarios,
  defaultSeed: DEFAULT_SEED,
  scenarioFiles: { resolve: resolveScenarios, exportSnapshot, rebuildSnapshot },
}

/**
 * The built-in sandbox with `replay`'s stage in front of the others. It imports no replay nor
 * HAR code: the browser entry, which loads them only when asked, assembles its sandbox so.
 */
export function builtInSandbox(options: SandboxCoreOptions, replay?: Replay): Sandbox {
  const stages = replay ? [replay.stage, ...(options.stages ?? [])] : options.stages
  const sandbox = assembleSandbox(builtInContent, { ...options, stages })
  const { seed, now } = sandbox.settings
  const factories = createFactories({ store: sandbox.store, seed, now })
  return Object.assign(sandbox, { replay, factories })
}

/**
 * Creates a sandbox with the built-in content.
 *
 * @example
 * const sandbox = createSandbox({ scenario: 'default', seed: 7 })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const { replay, ...rest } = options
  return builtInSandbox({ ...rest, writeJournalHar }, replay && replayOf(replay))
}
