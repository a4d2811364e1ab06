/**
 * @module
 * `createSandbox`, what every entry creates: the built-in sandbox (`built-in-sandbox.ts`: the
 * core's one assembly given the built-in content and the record factories) with the journal's
 * HAR writer and, when asked for one, a replay in front of the stages.
 */
import { writeJournalHar } from '../recordings/har.ts'
import { type Replay, type ReplayOptions, replayOf } from '../recordings/replay/replay.ts'
import { builtInSandbox, type Sandbox } from './built-in-sandbox.ts'
import type { SandboxCoreOptions } from './core/index.ts'

export { builtInContent, type Sandbox } from './built-in-sandbox.ts'
export type { OperationEvent, ResetOptions, ResetResult, SandboxContent } from './core/index.ts'
export { CONTROL_PREFIX, SESSION_COOKIE, SESSION_HEADER } from './core/index.ts'

export interface SandboxOptions extends SandboxCoreOptions {
  /** Recorded answers (HAR or examples) layered in front of the operations and other stages. */
  replay?: ReplayOptions | Replay | undefined
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
