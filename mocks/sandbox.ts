/**
 * @module
 * The sandbox with its built-in content: the reference's operations, the fixed
 * personas and the built-in scenarios, with the record factories and, when asked for,
 * recorded answers plugged in.
 * What every entry module (`platform-sandbox`, `/node`, `/browser`, `/playwright`,
 * `/storybook`, `/server`) creates.
 */
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
import { assembleSandbox } from './core/sandbox.ts'
import type {
  Sandbox as CoreSandbox,
  SandboxOptions as CoreSandboxOptions,
  SandboxContent,
} from './core/sandbox-types.ts'
import { createFactories, type Factories } from './factories/create-factories.ts'
import { operations } from './operations/table.ts'
import { createReplay, type Replay, type ReplayOptions } from '../recordings/replay/replay.ts'
import { replayStage } from '../recordings/replay/replay-stage.ts'

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

export interface Sandbox extends CoreSandbox {
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
}

/**
 * Creates a sandbox with the built-in content.
 *
 * @example
 * const sandbox = createSandbox({ scenario: 'default', seed: 7 })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const { replay: recorded, ...rest } = options
  const replay = recorded === undefined || 'answer' in recorded ? recorded : createReplay(recorded)
  const stages = replay ? [replayStage(replay), ...(rest.stages ?? [])] : rest.stages
  const sandbox = assembleSandbox(builtInContent, { ...rest, stages })
  const { seed, now } = sandbox.settings
  return Object.assign(sandbox, {
    replay,
    factories: createFactories({ store: sandbox.store, seed, now }),
  })
}
