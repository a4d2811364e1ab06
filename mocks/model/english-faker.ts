/**
 * @module
 * Seeded faker instances with the English locale only. `@faker-js/faker`'s main entry
 * loads every locale (about half a second in Node); its `locale/en` entry loads one, but
 * exports only a ready instance, so its class and definitions are taken from that instance.
 */
import type { Faker } from '@faker-js/faker'
import { faker as english } from '@faker-js/faker/locale/en'

const FakerClass = english.constructor as typeof Faker

/** A new faker with English definitions, seeded with `seed`. */
export function createEnglishFaker(seed: number): Faker {
  return new FakerClass({ locale: [english.rawDefinitions], seed })
}

export type { Faker }
