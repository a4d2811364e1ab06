/**
 * @module
 * A learned scenario as YAML, each record under a comment naming the exchanges it was
 * learned from (`#3 POST /bookings/bkg_1/decline 201`: the third entry of the HAR), or
 * saying the factories made it for a record that needed it. Written a record at a time by
 * `yaml-block.ts`, each under its comment.
 */
import { type CollectionName, collectionDefinitions } from '../../model/schemas.ts'
import type { LearnedScenario } from './learn-scenario.ts'
import { yamlBlock } from './yaml-block.ts'

/** At most this many exchanges are named above one record. */
const NAMED = 4

function originComment(learned: LearnedScenario, collection: string, key: string): string {
  const origins = learned.origins.get(`${collection}:${key}`)
  if (!origins || origins.length === 0) return 'made by the factories for a record that needs it'
  // Already in order, one index once, when a record was learned from one fact (the usual).
  let ordered = true
  for (let i = 1; i < origins.length && ordered; i++) ordered = origins[i - 1]! < origins[i]!
  const unique = ordered ? origins : [...new Set(origins)].sort((a, b) => a - b)
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
  let text = header.map((line) => `# ${line}\n`).join('')
  if (header.length > 0) text += '\n'
  text += yamlBlock(envelope)
  for (const [part, section] of Object.entries({ add, change, remove })) {
    if (!section || Object.keys(section).length === 0) continue
    text += `${part}:\n`
    for (const [collection, items] of Object.entries(section) as [string, unknown[]][]) {
      const field = collectionDefinitions[collection as CollectionName].key as string
      text += `  ${collection}:\n`
      for (const record of items) {
        const key = typeof record === 'string' ? record : (record as Record<string, unknown>)[field]
        text += `    # ${originComment(learned, collection, String(key))}\n`
        text += yamlBlock(record, '      ', '    - ')
      }
    }
  }
  return text
}
