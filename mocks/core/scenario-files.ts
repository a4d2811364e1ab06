/**
 * @module
 * What the core needs of scenario files, given by the entry (`mocks/scenarios/`): their
 * shapes, their error, the name rule and {@link ScenarioFiles}.
 */
import type { Scenario } from '../model/content.ts'
import type { CollectionName, RecordOf } from '../model/schemas.ts'
import type { Snapshot } from '../model/store.ts'

/** Every problem of one or more scenarios, each line naming the file, the record and the field. */
export class ScenarioError extends Error {
  readonly problems: readonly string[]

  constructor(message: string, problems: readonly string[]) {
    super(`${message}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    this.name = 'ScenarioError'
    this.problems = problems
  }
}

/** Names of scenarios and saved snapshots: 1 to 64 letters, digits, `.`, `_` or `-`. */
export const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/
export const NAME_RULE = '1 to 64 letters, digits, ".", "_" or "-"'

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

export type SnapshotChanges = Pick<ScenarioFile, 'add' | 'change' | 'remove'>

/** The `add`, `change` and `remove` that `file` has, and no key for those it has not. */
export function snapshotChanges({ add, change, remove }: SnapshotChanges): SnapshotChanges {
  return { ...(add && { add }), ...(change && { change }), ...(remove && { remove }) }
}

/** A file's contents and how problems name it (its path, usually). */
export interface ScenarioSource {
  file: unknown
  source: string
}

export type ScenarioInput = Scenario | ScenarioFile | ScenarioSource

/** The `scenarios` option: a list, or scenarios by name (the form built scenarios had). */
export type ScenarioInputs = readonly ScenarioInput[] | Readonly<Record<string, ScenarioInput>>

export interface ScenarioFiles {
  /** The scenarios `inputs` add to `known`; a {@link ScenarioError} lists every problem. */
  resolve(
    inputs: ScenarioInputs,
    known: Readonly<Record<string, Scenario>>,
    options: { seed: number; replaceable?: (name: string) => boolean },
  ): Record<string, Scenario>
  /** The scenario file that rebuilds `saved` on top of `origin` (its scenario at its seed). */
  exportSnapshot(
    saved: Snapshot,
    origin: Snapshot,
    options: { name: string; description: string },
  ): ScenarioFile
  /** `origin` with `changes` applied, saved as `name`; or the problems, as a file's. */
  rebuildSnapshot(
    origin: Snapshot,
    changes: SnapshotChanges,
    options: { name: string; idSequence?: number },
  ): { ok: true; snapshot: Snapshot } | { ok: false; problems: string[] }
}

/** Most scenarios added after the start (`addScenarios`, `POST /__sandbox/scenarios`). */
const MAX_ADDED_SCENARIOS = 100

/** Throws a `ScenarioError` when `resolved` would take the added scenarios past the cap. */
export function checkAddedScenarios(added: ReadonlySet<string>, resolved: object): void {
  if (new Set([...added, ...Object.keys(resolved)]).size <= MAX_ADDED_SCENARIOS) return
  throw new ScenarioError('Too many scenarios', [
    `at most ${MAX_ADDED_SCENARIOS} scenarios are added after the start: add one under the name of one added before to replace it (GET /__sandbox/scenarios lists them)`,
  ])
}
