/**
 * @module
 * The built-in content, data the core's assembly is given: the reference's operations, personas
 * and scenarios; and the sandbox assembled of it with its record factories. It imports no replay
 * nor HAR code: the browser entry, which loads them only when asked, assembles its sandbox here.
 */
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
import type { Replay } from '../recordings/replay/replay.ts'
import type { SandboxContent, SandboxCore, SandboxCoreOptions } from './core/index.ts'
import { assembleSandbox } from './core/index.ts'
import { createFactories, type Factories } from './factories/create-factories.ts'
import { operations } from './operations/table.ts'
import { resolveScenarios } from './scenarios/scenario-inputs.ts'
import { exportSnapshot, rebuildSnapshot } from './scenarios/snapshot-file.ts'

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

/** The sandbox of the built-in content, its record factories and `replay`'s stage first. */
export function builtInSandbox(options: SandboxCoreOptions, replay?: Replay): Sandbox {
  const stages = replay ? [replay.stage, ...(options.stages ?? [])] : options.stages
  const sandbox = assembleSandbox(builtInContent, { ...options, stages })
  const { seed, now } = sandbox.settings
  const factories = createFactories({ store: sandbox.store, seed, now })
  return Object.assign(sandbox, { replay, factories })
}
