/**
 * @module
 * `defineScenario()` for writing a scenario file in TypeScript, and the file's shape.
 */
import type { ScenarioFile } from '../core/index.ts'

export type { RecordChange, ScenarioFile } from '../core/index.ts'
export { NAME_PATTERN, NAME_RULE } from '../core/index.ts'

/** The scenario a file without `extends` starts from. */
export const DEFAULT_EXTENDS = 'empty'

/**
 * Declares a scenario in TypeScript, checked against the collection types. Give it to
 * `setupSandboxServer({ scenarios: [...] })`, `startSandboxWorker`, the Playwright
 * fixture or Storybook; the sandbox validates it like a file.
 *
 * @example
 * export const hostWithoutBookings = defineScenario({
 *   name: 'host-no-bookings',
 *   description: 'The host persona with no bookings at all',
 *   extends: 'default',
 *   remove: { bookings: ['bkg_pending', 'bkg_pending_2'] },
 * })
 */
export function defineScenario(file: ScenarioFile): ScenarioFile {
  return file
}
