/**
 * @module
 * Scenario data computed when the server is bundled, so that a bundled server
 * starts without running the faker generator for its usual starting point. In the
 * TypeScript sources there is none; `server/bundle.mjs` replaces this module with
 * the `default` scenario's records at the default seed, from the same fixtures.
 */
import type { DataSet } from '../mocks/model/schemas.ts'

/** The records `scenario` builds for `seed`, if they were computed at bundle time. */
export function prebuiltData(_scenario: string, _seed: number): DataSet | undefined {
  return undefined
}
