/**
 * @module
 * What a factory is given to build one record's defaults.
 */
import type { Faker } from '../model/english-faker.ts'
import type { CollectionName, RecordOf } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'

/** What a factory is given to build one record's defaults. */
export interface FactoryContext {
  store: Store
  faker: Faker
  now: Date
  /** Creates a record in the same store (for references the overrides leave open). */
  create<Name extends CollectionName>(
    name: Name,
    overrides?: Partial<RecordOf<Name>>,
  ): RecordOf<Name>
}
