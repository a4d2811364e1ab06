/**
 * @module
 * `platform-sandbox scenario from-har <file.har>`: the scenario a recording shows, written as a
 * YAML file checked as `--scenario-file` loads it; names each exchange not covered, and why.
 */
import { basename, dirname, join } from 'node:path'
import { scenarios as builtIn, DEFAULT_SEED } from '../../fixtures/scenarios.ts'
import { compileScenarios, ScenarioError } from '../../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../../mocks/scenarios/load-files.ts'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import { DEFAULT_EXTENDS, NAME_PATTERN, NAME_RULE } from '../../mocks/scenarios/scenario-file.ts'
import {
  checkWritable,
  notJson,
  readTextFile,
  UsageError,
  writeWhole,
} from '../../server/commands/input.ts'
import { type LearnedScenario, learnScenarioFromText } from '../learn/learn-scenario.ts'
import { scenarioYaml } from '../learn/scenario-yaml.ts'
import { RecordingsFormatError } from '../replay/recordings.ts'

export interface ScenarioFromHarCommandOptions {
  out?: string
  name?: string
  extends?: string
  scenarioFile?: string[]
  seed?: number
  at?: 'start' | 'end'
}

/** `staging.har` gives `staging`; characters a name cannot hold become `-`. */
function nameOf(harPath: string): string {
  const stem = basename(harPath)
    .replace(/\.har$/i, '')
    .replace(/[^A-Za-z0-9._-]/g, '-')
  return stem.slice(0, 64) || 'learned'
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`

function counts(learned: LearnedScenario): string {
  const count = (part: 'add' | 'change' | 'remove') =>
    Object.values(learned.scenario[part] ?? {}).reduce((sum, list) => sum + list.length, 0)
  return `${count('add')} added, ${count('change')} changed, ${count('remove')} removed`
}

/** A scenario file's problems as a `UsageError`; anything else thrown as it is. */
function usageError(error: unknown): never {
  if (error instanceof ScenarioError) throw new UsageError(error.problems.join('; '))
  throw error
}

/** Learns from `harPath` and writes the scenario file; nothing is written on bad input. */
export async function runScenarioFromHar(
  harPath: string,
  options: ScenarioFromHarCommandOptions,
): Promise<void> {
  const name = options.name ?? nameOf(harPath)
  if (!NAME_PATTERN.test(name)) throw new UsageError(`--name "${name}": must be ${NAME_RULE}`)
  const out = options.out ?? join(dirname(harPath), `${name}.scenario.yaml`)
  const files = options.scenarioFile
    ? await readScenarioFiles(options.scenarioFile).catch(usageError)
    : []
  const extended = options.extends ?? DEFAULT_EXTENDS
  const known = [
    ...Object.keys(builtIn),
    ...files.map(({ file }) => (file as { name?: unknown } | null)?.name).filter(Boolean),
  ]
  if (!known.includes(extended)) {
    throw new UsageError(`--extends: unknown scenario "${extended}" (known: ${known.join(', ')})`)
  }
  const har = readTextFile(harPath)
  checkWritable(out)
  let learned: LearnedScenario
  try {
    learned = await learnScenarioFromText(har, {
      name,
      extends: extended,
      source: basename(harPath),
      at: options.at ?? 'start',
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(files.length > 0 ? { scenarios: files } : {}),
    })
  } catch (error) {
    if (error instanceof SyntaxError) throw notJson(harPath, error, har)
    if (error instanceof RecordingsFormatError) throw new UsageError(`${harPath}: ${error.message}`)
    usageError(error)
  }
  const text = scenarioYaml(learned, [
    `Learned by \`platform-sandbox scenario from-har ${basename(harPath)}\`: each record names the`,
    'exchanges (#n: the n-th entry of the HAR) it was learned from.',
  ])
  // Checked as --scenario-file loads it, before anything is written.
  compileScenarios([{ file: parseScenarioText(text, out), source: out }, ...files], builtIn, {
    seed: options.seed ?? DEFAULT_SEED,
  })
  writeWhole(out, text)
  console.log(
    `${out}: scenario "${name}" (${options.at === 'end' ? 'where the recording stopped' : 'before the first exchange'}) on top of "${extended}": records ${counts(learned)}`,
  )
  console.log(
    `Covered ${learned.covered} of ${plural(learned.exchanges, 'exchange')} with the API (${plural(learned.entries, 'entry', 'entries')} in ${harPath}).`,
  )
  if (learned.notCovered.length > 0) {
    console.log(`Not covered (${learned.notCovered.length}):`)
    for (const { label, reason } of learned.notCovered) console.log(`  ${label}: ${reason}`)
  }
  if (learned.others.length > 0) {
    const shown = learned.others.slice(0, 3).join(', ')
    const more = learned.others.length > 3 ? ` and ${learned.others.length - 3} more` : ''
    console.log(
      `Left out ${plural(learned.others.length, 'entry that is', 'entries that are')} no operation of the API: ${shown}${more}`,
    )
  }
  for (const user of learned.signIns) {
    console.log(
      `Sign in as ${user.publicId}: idp code ${user.idpCode}, refresh token ${user.refreshToken}`,
    )
  }
  const startFiles = [...(options.scenarioFile ?? []), out].map((file) => `--scenario-file ${file}`)
  console.log(`Start it: platform-sandbox ${startFiles.join(' ')} --scenario ${name}`)
}
