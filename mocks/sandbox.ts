/**
 * @module
 * `createSandbox`, what every entry creates: the built-in sandbox (`built-in-sandbox.ts`),
 * taking the replay's options too. The browser entry loads a replay only when asked for one.
 */
import { createReplay, type Replay, type ReplayOptions } from '../recordings/replay/replay.ts'
import { type BuiltInSandboxOptions, Sandbox } from './built-in-sandbox.ts'

export * from './built-in-sandbox.ts'

export interface SandboxOptions extends Omit<BuiltInSandboxOptions, 'replay'> {
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
  const { replay } = options
  return new Sandbox({
    ...options,
    replay: replay === undefined || 'answer' in replay ? replay : createReplay(replay),
  })
}
