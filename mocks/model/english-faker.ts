/**
 * @module
 * Seeded faker instances with the English locale only. `@faker-js/faker`'s main entry
 * loads every locale (about half a second in Node); its `locale/en` entry loads one, but
 * exports only a ready instance, so its class and definitions are taken from that instance.
 */
import type { Faker } from '@faker-js/faker'
import { faker as english } from '@faker-js/faker/locale/en'

/**
 * A new faker with English definitions, seeded with `seed`. The locale is first touched
 * here, not when the module loads: the CLI bundle defers evaluating it until then.
 */
export function createEnglishFaker(seed: number): Faker {
  const FakerClass = english.constructor as typeof Faker
  return new FakerClass({ locale: [english.rawDefinitions], seed })
}

export type { Faker }
