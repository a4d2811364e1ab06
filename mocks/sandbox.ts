/**
 * @module
 * `createSandbox`: the sandbox with its built-in content (`built-in-sandbox.ts`), taking the
 * replay's options too. What the entry modules (`platform-sandbox`, `/node`, `/playwright`,
 * `/storybook`, `/server`) create; the browser entry loads the replay only when asked for one.
 */

import { createReplay, type Replay, type ReplayOptions } from '../recordings/replay/replay.ts'
import {
  type BuiltInSandboxOptions,
  createBuiltInSandbox,
  type Sandbox,
} from './built-in-sandbox.ts'

export * from './built-in-sandbox.ts'

export interface SandboxOptions extends Omit<BuiltInSandboxOptions, 'replay'> {
  /**
   * Recorded answers (HAR or examples) layered in front of the operations, after the
   * control API and the fault rules, before any other stage.
   */
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
  return createBuiltInSandbox({
    ...options,
    replay: replay === undefined || 'answer' in replay ? replay : createReplay(replay),
  })
}
