/**
 * @module
 * What a scenario file holds, and `defineScenario()` for writing one in TypeScript.
 * A file starts from another scenario (`extends`) and adds, changes and removes
 * records, in that order. Nothing here reads files: the Node entry does that.
 */
import type { CollectionName, RecordOf } from '../model/schemas.ts'

/** A change names its record by the collection's key field (or `id`) and lists the fields it sets. */
export type RecordChange<Name extends CollectionName> = Partial<RecordOf<Name>> & { id?: string }

/**
 * A scenario as data: JSON, YAML or a TypeScript object.
 *
 * - `extends`: the scenario it starts from, built-in (`default`, `empty`, `large`) or
 *   another loaded one. Default `empty` (the personas and their payment accounts).
 * - `seed`: the seed `extends` is built with. Without it, the sandbox's seed.
 * - `add`: whole new records per collection; `change`: `{ <key>, ...fields }` merged into
 *   existing records; `remove`: keys of records to drop.
 */
export interface ScenarioFile {
  name: string
  description?: string
  extends?: string
  seed?: number
  add?: { [Name in CollectionName]?: RecordOf<Name>[] }
  change?: { [Name in CollectionName]?: RecordChange<Name>[] }
  remove?: { [Name in CollectionName]?: string[] }
}

/** Names of scenarios and saved snapshots: 1 to 64 letters, digits, `.`, `_` or `-`. */
export const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/
export const NAME_RULE = '1 to 64 letters, digits, ".", "_" or "-"'

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
