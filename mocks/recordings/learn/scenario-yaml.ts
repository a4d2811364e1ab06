/**
 * @module
 * A learned scenario as YAML, each record under a comment naming the exchanges it was
 * learned from (`#3 POST /bookings/bkg_1/decline 201`: the third entry of the HAR), or
 * saying the factories made it for a record that needed it.
 */
import { Document, isMap, isScalar, isSeq } from 'yaml'
import { type CollectionName, collectionDefinitions } from '../../model/schemas.ts'
import type { LearnedScenario } from './learn-scenario.ts'

/** At most this many exchanges are named above one record. */
const NAMED = 4

function originComment(learned: LearnedScenario, collection: string, key: string): string {
  const origins = learned.origins.get(`${collection}:${key}`)
  if (!origins || origins.length === 0) return ' made by the factories for a record that needs it'
  const unique = [...new Set(origins)].sort((a, b) => a - b)
  const named = unique.slice(0, NAMED).map((index) => learned.labels.get(index) ?? `#${index + 1}`)
  const more = unique.length - named.length
  return ` from ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

/**
 * The YAML text of `learned.scenario`, `header` lines first as comments.
 *
 * @example
 * writeFileSync('staging.scenario.yaml', scenarioYaml(learned, ['Learned from staging.har']))
 */
export function scenarioYaml(learned: LearnedScenario, header: readonly string[] = []): string {
  const document = new Document(learned.scenario)
  if (header.length > 0) document.commentBefore = header.map((line) => ` ${line}`).join('\n')
  for (const part of ['add', 'change', 'remove'] as const) {
    const section = document.get(part)
    if (!isMap(section)) continue
    for (const pair of section.items) {
      const collection = String(isScalar(pair.key) ? pair.key.value : pair.key)
      const field = collectionDefinitions[collection as CollectionName]?.key as string | undefined
      if (!isSeq(pair.value) || !field) continue
      for (const item of pair.value.items) {
        const key = isMap(item) ? item.get(field) : isScalar(item) ? item.value : undefined
        if (key === undefined) continue
        ;(item as { commentBefore?: string }).commentBefore = originComment(
          learned,
          collection,
          String(key),
        )
      }
    }
  }
  return document.toString({ lineWidth: 0 })
}
