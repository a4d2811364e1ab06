/**
 * @module
 * The `scenarios` option of every runtime: built scenarios, scenario files as objects, or
 * files read from disk with their path, checked and built once, here.
 */
import type { ScenarioInput, ScenarioInputs, ScenarioSource } from '../core/index.ts'

export type { ScenarioInput, ScenarioInputs } from '../core/index.ts'

import type { Scenario } from '../model/content.ts'
import { compileScenarios } from './compile-scenarios.ts'

const isScenario = (input: ScenarioInput): input is Scenario =>
  typeof (input as Partial<Scenario>).build === 'function'

const isSource = (input: ScenarioInput): input is ScenarioSource =>
  typeof (input as Partial<ScenarioSource>).source === 'string' && 'file' in input

/** `inputs` as a list; a built scenario given by name takes that name. */
export function toScenarioList(inputs: ScenarioInputs): ScenarioInput[] {
  if (Array.isArray(inputs)) return [...(inputs as readonly ScenarioInput[])]
  return Object.entries(inputs).map(([name, input]) =>
    isScenario(input) && input.name !== name ? { ...input, name } : input,
  )
}

/**
 * Adds `inputs` to `known`: returns the new scenarios by name, or throws a
 * `ScenarioError` with every problem of every file.
 */
export function resolveScenarios(
  inputs: ScenarioInputs,
  known: Readonly<Record<string, Scenario>>,
  options: { seed: number; replaceable?: (name: string) => boolean },
): Record<string, Scenario> {
  const entries: [string | undefined, ScenarioInput][] = Array.isArray(inputs)
    ? inputs.map((input) => [undefined, input])
    : Object.entries(inputs)
  const built = new Map<string, Scenario>()
  const sources: ScenarioSource[] = []
  for (const [name, input] of entries) {
    if (isScenario(input)) built.set(name ?? input.name, input)
    else if (isSource(input)) sources.push(input)
    else {
      const label =
        typeof input?.name === 'string'
          ? `scenario "${input.name}"`
          : `scenario ${name ?? sources.length}`
      sources.push({ file: input, source: label })
    }
  }
  // `Object.fromEntries` and spreads define own keys: `__proto__` stays a name, not a prototype.
  const compiled = compileScenarios(sources, { ...known, ...Object.fromEntries(built) }, options)
  return { ...Object.fromEntries(built), ...compiled }
}
