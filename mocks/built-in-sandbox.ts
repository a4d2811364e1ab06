/**
 * @module
 * The sandbox with its built-in content (operations, personas, scenarios), the record
 * factories, the journal's HAR writer and, when given, a replay plugged in. It imports no
 * replay code, so the browser entry bundles none unless asked for a replay.
 */
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
import { writeJournalHar } from '../recordings/har.ts'
import type { Replay, ReplayOptions } from '../recordings/replay/replay.ts'
import { Sandbox as CoreSandbox } from './core/sandbox.ts'
import type { SandboxOptions as CoreSandboxOptions, SandboxContent } from './core/sandbox-types.ts'
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

export interface BuiltInSandboxOptions extends CoreSandboxOptions {
  /** Recorded answers (`createReplay`) layered in front of the operations and other stages. */
  replay?: Replay | undefined
}

/** The built-in content: the reference's operations, personas and scenarios. */
export const builtInContent: SandboxContent = {
  operations,
  personas,
  scenarios,
  defaultSeed: DEFAULT_SEED,
  scenarioFiles: { resolve: resolveScenarios, exportSnapshot, rebuildSnapshot },
}

/** The core sandbox with the built-in content, its record factories and a replay, if given. */
export class Sandbox extends CoreSandbox {
  /** The recorded answers layered in front of the operations, if any. */
  readonly replay: Replay | undefined
  /**
   * One factory per collection: `factories.bookings({ hostId: 'usr_host' }, { session })`
   * creates a valid record with seeded defaults in the session and returns it.
   */
  readonly factories: Factories

  constructor(options: BuiltInSandboxOptions = {}) {
    const { replay, ...rest } = options
    const stages = replay ? [replay.stage, ...(rest.stages ?? [])] : rest.stages
    super(builtInContent, { ...rest, stages, writeJournalHar })
    this.replay = replay
    const { seed, now } = this.settings
    this.factories = createFactories({ store: this.store, seed, now })
  }
}

/** A replay from its options, its code loaded only then (the browser entry's way). */
export async function loadReplay(replay: ReplayOptions | Replay | undefined) {
  if (replay === undefined || 'answer' in replay) return replay
  return (await import('../recordings/replay/replay.ts')).createReplay(replay)
}
