/**
 * @module
 * Scenario files to scenarios: each file's shape checked, `extends` resolved in any order, and
 * every file built once, so all their problems are known before anything loads.
 */
import {
  NAME_PATTERN,
  NAME_RULE,
  ScenarioError,
  type ScenarioFile,
  type ScenarioSource,
} from '../core/index.ts'

export { ScenarioError, type ScenarioSource } from '../core/index.ts'

import type { Scenario } from '../model/content.ts'
import { collectionNames } from '../model/schemas.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { applyScenario } from './apply-scenario.ts'
import { describeIssue } from './describe-issue.ts'
import { DEFAULT_EXTENDS } from './scenario-file.ts'

const collectionMap = <T extends z.ZodMiniType>(item: T) => z.record(z.string(), z.array(item))

/** A scenario file's envelope; its records are checked against their collections when built. */
export const scenarioFileSchema = z.strictObject({
  name: z.string().check(z.regex(NAME_PATTERN, `must be ${NAME_RULE}`)),
  description: z.optional(z.string().check(z.maxLength(1_000))),
  extends: z.optional(nonEmpty()),
  seed: z.optional(z.number().check(z.int(), z.gte(0))),
  add: z.optional(collectionMap(z.record(z.string(), z.unknown()))),
  change: z.optional(collectionMap(z.record(z.string(), z.unknown()))),
  remove: z.optional(collectionMap(z.string())),
})
const envelopeFields = Object.keys(scenarioFileSchema.shape)

function checkEnvelope(
  file: unknown,
): { ok: true; file: ScenarioFile } | { ok: false; problems: string[] } {
  const parsed = scenarioFileSchema.safeParse(file, { reportInput: true })
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap((issue) =>
      issue.path.length === 0 && issue.code === 'invalid_type'
        ? ['expected a scenario object with name, description, extends, seed, add, change, remove']
        : describeIssue(issue, '', (path) => (path.length === 0 ? envelopeFields : [])).map(
            (line) => line.replace(/^\./, ''),
          ),
    )
    return { ok: false, problems }
  }
  const problems: string[] = []
  for (const part of ['add', 'change', 'remove'] as const) {
    for (const name of Object.keys(parsed.data[part] ?? {})) {
      if (!(collectionNames as string[]).includes(name))
        problems.push(
          `${part}.${name}: unknown collection (collections: ${collectionNames.join(', ')})`,
        )
    }
  }
  if (problems.length > 0) return { ok: false, problems }
  return { ok: true, file: parsed.data as ScenarioFile }
}

/** A scenario that builds `file` on top of the scenario it extends, looked up when built. */
function toScenario(
  file: ScenarioFile,
  source: string,
  lookup: (name: string) => Scenario | undefined,
): Scenario {
  const parentName = file.extends ?? DEFAULT_EXTENDS
  return {
    name: file.name,
    description: file.description ?? '',
    build(seed) {
      const parent = lookup(parentName)
      if (!parent) {
        throw new ScenarioError(`Failed to build scenario "${file.name}"`, [
          `${source}: extends: unknown scenario "${parentName}"`,
        ])
      }
      const result = applyScenario(parent.build(file.seed ?? seed), file)
      if (!result.ok) {
        throw new ScenarioError(
          `Failed to build scenario "${file.name}"`,
          result.problems.map((problem) => `${source}: ${problem}`),
        )
      }
      return result.data
    },
  }
}

/**
 * Checks and builds `sources` against the `known` scenarios; returns the new scenarios
 * by name, or throws a {@link ScenarioError} listing every problem of every file.
 * `seed` is the seed files without their own are checked with.
 */
export function compileScenarios(
  sources: readonly ScenarioSource[],
  known: Readonly<Record<string, Scenario>>,
  { seed, replaceable = () => false }: { seed: number; replaceable?: (name: string) => boolean },
): Record<string, Scenario> {
  const problems: string[] = []
  const files = new Map<string, { file: ScenarioFile; source: string }>()
  for (const { file, source } of sources) {
    const checked = checkEnvelope(file)
    if (!checked.ok) {
      problems.push(...checked.problems.map((problem) => `${source}: ${problem}`))
      continue
    }
    const { name } = checked.file
    if (Object.hasOwn(known, name) && !replaceable(name)) {
      problems.push(`${source}: name: "${name}" is already a scenario; choose another name`)
    } else if (files.has(name)) {
      problems.push(`${source}: name: "${name}" is also the name of ${files.get(name)!.source}`)
    } else files.set(name, { file: checked.file, source })
  }

  // By name in a Map, and looked up in `known` as its own keys only: a scenario may be called
  // `toString` or `__proto__` like any other, and extending one of those is an unknown name.
  const compiled = new Map<string, Scenario>()
  const lookup = (name: string) =>
    compiled.get(name) ?? (Object.hasOwn(known, name) ? known[name] : undefined)
  for (const [name, { file, source }] of files) compiled.set(name, toScenario(file, source, lookup))

  const failed = new Set<string>()
  const checked = new Set<string>()
  const check = (name: string, chain: string[]): void => {
    if (checked.has(name) || !files.has(name)) return
    const { file, source } = files.get(name)!
    const parent = file.extends ?? DEFAULT_EXTENDS
    if (chain.includes(parent) || parent === name) {
      problems.push(
        `${source}: extends: "${parent}" leads back to "${name}" (${[...chain, name, parent].join(' -> ')})`,
      )
      failed.add(name)
    } else if (!lookup(parent)) {
      const names = [...new Set([...Object.keys(known), ...files.keys()])].filter(
        (known) => known !== name,
      )
      problems.push(`${source}: extends: unknown scenario "${parent}" (known: ${names.join(', ')})`)
      failed.add(name)
    } else {
      check(parent, [...chain, name])
      if (failed.has(parent)) {
        problems.push(`${source}: extends: scenario "${parent}" has problems of its own`)
        failed.add(name)
      } else {
        try {
          compiled.get(name)!.build(seed)
        } catch (error) {
          if (!(error instanceof ScenarioError)) throw error
          problems.push(...error.problems)
          failed.add(name)
        }
      }
    }
    checked.add(name)
  }
  for (const name of files.keys()) check(name, [])

  if (problems.length > 0) {
    throw new ScenarioError(
      problems.length === 1
        ? 'Invalid scenario, 1 problem'
        : `Invalid scenarios, ${problems.length} problems`,
      problems,
    )
  }
  return Object.fromEntries(compiled)
}
