/**
 * @module
 * `platform-sandbox scenario from-har <file.har>`: the scenario a recording shows, written as a
 * YAML file (each record under a comment naming its exchanges) checked as `--scenario-file` loads
 * it; names each exchange not covered, and why.
 */
import { basename, dirname, join } from 'node:path'
import { Document, isMap, isNode, isScalar, isSeq, Schema, visit } from 'yaml'
import { scenarios as builtIn, DEFAULT_SEED } from '../../fixtures/scenarios.ts'
import { type CollectionName, collectionDefinitions } from '../../mocks/model/schemas.ts'
import { compileScenarios, ScenarioError } from '../../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../../mocks/scenarios/load-files.ts'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import { DEFAULT_EXTENDS, NAME_PATTERN, NAME_RULE } from '../../mocks/scenarios/scenario-file.ts'
import {
  type LearnedScenario,
  learnScenarioFromText,
} from '../../recordings/learn/learn-scenario.ts'
import { RecordingsFormatError } from '../../recordings/replay/recordings.ts'
import { checkWritable, notJson, readTextFile, UsageError, writeWhole } from './input.ts'

/** The comment above a record: its first four exchanges, or the factories. */
function originComment(learned: LearnedScenario, collection: string, key: string): string {
  const origins = learned.origins.get(`${collection}:${key}`)
  if (!origins || origins.length === 0) return 'made by the factories for a record that needs it'
  const unique = [...new Set(origins)].sort((a, b) => a - b)
  const named = unique.slice(0, 4).map((index) => learned.label(index))
  const more = unique.length - named.length
  return `from ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

/**
 * Strings quoted when a YAML 1.1 reader (PyYAML, SnakeYAML 1, go-yaml v2) would read them as
 * something else (`yes`, `0123`, `12:30`) too; an ISO date and time stays plain.
 */
const COMPAT = new Schema({ schema: 'yaml-1.1' }).tags.filter(
  (tag) => tag.tag !== 'tag:yaml.org,2002:timestamp',
)

/** Characters YAML does not allow unescaped in a document, or reads as line breaks. */
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g')
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`

/** Refuses what is not plain data. */
function plainData(_key: unknown, value: unknown): unknown {
  const type = typeof value
  if (type === 'function' || type === 'bigint' || type === 'symbol') {
    throw new TypeError(`Failed to write YAML: a ${type} is not plain data`)
  }
  return value
}

/** The YAML text of `learned.scenario`, `header` lines first as comments. */
export function scenarioYaml(learned: LearnedScenario, header: readonly string[] = []): string {
  // What the scenario is first, then its sections, the empty ones left out.
  const { add, change, remove, ...envelope } = learned.scenario
  const sections = Object.entries({ add, change, remove }).filter(
    ([, section]) => section && Object.keys(section).length > 0,
  )
  const value = { ...envelope, ...Object.fromEntries(sections) }
  const document = new Document(value, plainData, { compat: COMPAT })
  if (header.length > 0) document.commentBefore = header.map((line) => ` ${line}`).join('\n')
  for (const part of ['add', 'change', 'remove']) {
    const section = document.get(part)
    if (!isMap(section)) continue
    for (const pair of section.items) {
      const collection = String(isScalar(pair.key) ? pair.key.value : pair.key)
      const field = collectionDefinitions[collection as CollectionName].key as string
      if (!isSeq(pair.value)) continue
      for (const item of pair.value.items) {
        const key = isScalar(item) ? item.value : isMap(item) ? item.get(field) : undefined
        if (isNode(item)) item.commentBefore = ` ${originComment(learned, collection, String(key))}`
      }
    }
  }
  // Characters a YAML 1.1 reader or an editor takes for a line break: escaped, in double quotes.
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && UNPRINTABLE.test(node.value)) node.type = 'QUOTE_DOUBLE'
    },
  })
  return document.toString({ lineWidth: 0 }).replace(UNPRINTABLE_ALL, escapeChar)
}

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
  const stem = basename(harPath).replace(/\.har$/i, '')
  return stem.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64) || 'learned'
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`

/** A scenario file's problems as a `UsageError`; anything else thrown as it is. */
function usageError(error: unknown): never {
  if (error instanceof ScenarioError) throw new UsageError(error.problems.join('; '))
  throw error
}

/** Learns from `harPath` and writes the scenario file; nothing is written on bad input. */
export async function runScenarioFromHar(harPath: string, options: ScenarioFromHarCommandOptions) {
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
  const count = (part: 'add' | 'change' | 'remove') =>
    Object.values(learned.scenario[part] ?? {}).reduce((sum, list) => sum + list.length, 0)
  console.log(
    `${out}: scenario "${name}" (${options.at === 'end' ? 'where the recording stopped' : 'before the first exchange'}) on top of "${extended}": records ${count('add')} added, ${count('change')} changed, ${count('remove')} removed`,
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
