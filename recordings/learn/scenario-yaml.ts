/**
 * @module
 * A learned scenario as YAML (the `yaml` package's document), each record under a comment
 * naming the exchanges it was learned from, or saying the factories made it.
 */
import { Document, isMap, isNode, isScalar, isSeq, Schema, visit } from 'yaml'
import { type CollectionName, collectionDefinitions } from '../../mocks/model/schemas.ts'
import type { LearnedScenario } from './learn-scenario.ts'

/** At most this many exchanges are named above one record. */
const NAMED = 4

function originComment(learned: LearnedScenario, collection: string, key: string): string {
  const origins = learned.origins.get(`${collection}:${key}`)
  if (!origins || origins.length === 0) return 'made by the factories for a record that needs it'
  const unique = [...new Set(origins)].sort((a, b) => a - b)
  const named = unique.slice(0, NAMED).map((index) => learned.label(index))
  const more = unique.length - named.length
  return `from ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

/**
 * Strings are quoted when a YAML 1.1 reader (PyYAML, SnakeYAML 1, go-yaml v2...) would
 * read them as something else (`yes`, `0123`, `12:30`), as well as when the file's own
 * YAML 1.2 readers would; an ISO date and time stays plain, as the scenario files write it.
 */
const COMPAT = new Schema({ schema: 'yaml-1.1' }).tags.filter(
  (tag) => tag.tag !== 'tag:yaml.org,2002:timestamp',
)

/** Characters YAML does not allow unescaped in a document, or reads as line breaks. */
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff]/
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g')
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`

/** Refuses what is not plain data, as a learned scenario always is. */
function plainData(_key: unknown, value: unknown): unknown {
  const type = typeof value
  if (type === 'function' || type === 'bigint' || type === 'symbol') {
    throw new TypeError(`Failed to write YAML: a ${type} is not plain data`)
  }
  return value
}

/**
 * The YAML text of `learned.scenario`, `header` lines first as comments.
 *
 * @example
 * writeFileSync('staging.scenario.yaml', scenarioYaml(learned, ['Learned from staging.har']))
 */
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
  // Characters a YAML 1.1 reader or an editor takes for a line break, or that YAML does
  // not print: written as escapes, in double quotes.
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && UNPRINTABLE.test(node.value)) {
        node.type = 'QUOTE_DOUBLE'
      }
    },
  })
  return document.toString({ lineWidth: 0 }).replace(UNPRINTABLE_ALL, escapeChar)
}
