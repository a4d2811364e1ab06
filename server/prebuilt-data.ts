/**
 * @module
 * None in the sources; `scripts/bundle-cli.mjs` replaces this module with the `default`
 * scenario's records at the default seed, so that the usual start runs no generator.
 */
import type { DataSet } from '../mocks/model/schemas.ts'

/** The records `scenario` builds for `seed`, if they were computed at bundle time. */
export function prebuiltData(_scenario: string, _seed: number): DataSet | undefined {
  return undefined
}
