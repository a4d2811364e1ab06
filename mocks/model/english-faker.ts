/**
 * @module
 * Seeded fakers with only the English definitions the generators read
 * (`english-definitions.generated.ts`, by `npm run generate`): the whole locale is over 100 kB
 * gzipped in a browser bundle, this part about 15 kB, and a seed gives the same records.
 */
import { Faker, type LocaleDefinition } from '@faker-js/faker'
import { englishDefinitions } from './english-definitions.generated.ts'

let definitions: LocaleDefinition = englishDefinitions
let reads: Set<string> | undefined

/** A new faker with the English definitions, seeded with `seed`. */
export function createEnglishFaker(seed: number): Faker {
  const faker = new Faker({ locale: [definitions], seed })
  if (reads) observeReads(faker, reads)
  return faker
}

/**
 * Runs `work` with fakers made from `fullDefinitions` and returns each definition it read,
 * as `module.key`: how `npm run generate` picks the English definitions to ship.
 */
export async function definitionsRead(
  fullDefinitions: LocaleDefinition,
  work: () => unknown,
): Promise<Set<string>> {
  const seen = new Set<string>()
  const previous = definitions
  definitions = fullDefinitions
  reads = seen
  try {
    await work()
  } finally {
    definitions = previous
    reads = undefined
  }
  return seen
}

/** Records every `module.key` that `faker` looks up, through either of its definition views. */
function observeReads(faker: Faker, seen: Set<string>): void {
  const observe = (view: object): object =>
    new Proxy(view, {
      get(target, module) {
        const value = Reflect.get(target, module)
        if (typeof module !== 'string' || value === null || typeof value !== 'object') return value
        // faker reaches some definitions through `definitions.raw`, a view of its own.
        if (module === 'raw') return observe(value)
        return new Proxy(value, {
          get(entries, key) {
            if (typeof key === 'string') seen.add(`${module}.${key}`)
            return Reflect.get(entries, key)
          },
        })
      },
    })
  for (const view of ['definitions', 'rawDefinitions'] as const) {
    Object.defineProperty(faker, view, { configurable: true, value: observe(faker[view]) })
  }
}

export type { Faker }
