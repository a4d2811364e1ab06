/**
 * @module
 * A learned scenario as YAML, each record under a comment naming the exchanges it was
 * learned from (`#3 POST /bookings/bkg_1/decline 201`: the third entry of the HAR), or
 * saying the factories made it for a record that needed it. Written with js-yaml (YAML 1.2
 * core schema, as `parseScenarioText` reads it), one collection at a time, each record's
 * comment put before the line that starts it: several times faster than building a
 * commented document with the `yaml` package.
 */
import { CORE_SCHEMA, dump } from 'js-yaml'
import { type CollectionName, collectionDefinitions } from '../../model/schemas.ts'
import type { LearnedScenario } from './learn-scenario.ts'

/** At most this many exchanges are named above one record. */
const NAMED = 4

const yaml = (value: unknown) => dump(value, { schema: CORE_SCHEMA, lineWidth: -1 })

function originComment(learned: LearnedScenario, collection: string, key: string): string {
  const origins = learned.origins.get(`${collection}:${key}`)
  if (!origins || origins.length === 0) return 'made by the factories for a record that needs it'
  const unique = [...new Set(origins)].sort((a, b) => a - b)
  const named = unique.slice(0, NAMED).map((index) => learned.label(index))
  const more = unique.length - named.length
  return `from ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

/**
 * The YAML text of `learned.scenario`, `header` lines first as comments.
 *
 * @example
 * writeFileSync('staging.scenario.yaml', scenarioYaml(learned, ['Learned from staging.har']))
 */
export function scenarioYaml(learned: LearnedScenario, header: readonly string[] = []): string {
  const { add, change, remove, ...envelope } = learned.scenario
  const lines = header.map((line) => `# ${line}`)
  if (lines.length > 0) lines.push('')
  lines.push(yaml(envelope).trimEnd())
  for (const [part, section] of Object.entries({ add, change, remove })) {
    if (!section || Object.keys(section).length === 0) continue
    lines.push(`${part}:`)
    for (const [collection, items] of Object.entries(section) as [string, unknown[]][]) {
      const field = collectionDefinitions[collection as CollectionName].key as string
      lines.push(`  ${collection}:`)
      // In a block sequence, each item, and only an item, starts a line with "- ".
      let item = 0
      for (const line of yaml(items).trimEnd().split('\n')) {
        if (line.startsWith('- ')) {
          const record = items[item++]
          const key =
            typeof record === 'string' ? record : (record as Record<string, unknown>)[field]
          lines.push(`    # ${originComment(learned, collection, String(key))}`)
        }
        lines.push(`    ${line}`)
      }
    }
  }
  return `${lines.join('\n')}\n`
}
