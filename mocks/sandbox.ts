/**
 * @module
 * The sandbox with its built-in content: the reference's operations, the fixed
 * personas and the built-in scenarios. What every entry module (`platform-sandbox`,
 * `/node`, `/browser`, `/playwright`, `/storybook`, `/server`) creates.
 */
import { personas } from '../fixtures/personas.ts'
import { DEFAULT_SEED, scenarios } from '../fixtures/scenarios.ts'
import { assembleSandbox } from './core/sandbox.ts'
import type { Sandbox, SandboxContent, SandboxOptions } from './core/sandbox-types.ts'
import { operations } from './operations/table.ts'

export { CONTROL_PREFIX } from './core/control-table.ts'
export type {
  OperationEvent,
  ResetOptions,
  ResetResult,
  Sandbox,
  SandboxContent,
  SandboxOptions,
} from './core/sandbox-types.ts'
export { SESSION_COOKIE, SESSION_HEADER } from './core/session-id.ts'

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
  return assembleSandbox(builtInContent, options)
}
