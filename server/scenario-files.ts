/**
 * @module
 * `--scenario-file`: read before the start; a bad file prints every problem, exits 2.
 */
import { scenarioNames } from '../fixtures/scenarios.ts'
import { ScenarioError, type ScenarioSource } from '../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../mocks/scenarios/load-files.ts'
import type { CliOptions } from './cli-options.ts'
import type { ServerOptions } from './options.ts'

export const INVALID_SCENARIO_EXIT_CODE = 2

/** Prints the problems of a `ScenarioError` to stderr, one a line. */
export function reportScenarioError(error: ScenarioError): void {
  console.error(`platform-sandbox: ${error.message.split(':\n')[0]}:`)
  for (const problem of error.problems) console.error(`  ${problem}`)
}

/** The options with the scenario files read; exits on a bad file or an unknown scenario. */
export async function withScenarioFiles({
  scenarioFiles,
  ...options
}: CliOptions): Promise<ServerOptions> {
  if (scenarioFiles === undefined) return options
  let sources: ScenarioSource[]
  try {
    sources = await readScenarioFiles(scenarioFiles)
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error
    reportScenarioError(error)
    process.exit(INVALID_SCENARIO_EXIT_CODE)
  }
  const names = [
    ...scenarioNames,
    ...sources
      .map(({ file }) => (file as { name?: unknown } | null)?.name)
      .filter((name) => typeof name === 'string'),
  ]
  if (options.scenario !== undefined && !names.includes(options.scenario)) {
    console.error(
      `platform-sandbox: unknown scenario "${options.scenario}" (known: ${names.join(', ')})`,
    )
    process.exit(1)
  }
  return { ...options, scenarios: sources }
}
