/**
 * @module
 * `sandbox.factories.<collection>(overrides, { session })`: one valid record with seeded
 * defaults, and the records it points at when the session has none, checked like a file's.
 */
import { createEnglishFaker, type Faker } from '../model/english-faker.ts'
import type { CollectionName, RecordOf } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import { describeIssue } from '../scenarios/describe-issue.ts'
import { fieldsAt, strictSchemas } from '../scenarios/record-schemas.ts'
import { checkReferences } from '../scenarios/references.ts'
import { type Defaults, defaults, type FactoryContext } from './defaults.ts'

export interface FactoryOptions {
  /** The session to create the record in. Default: the shared default session. */
  session?: string
}

/** One factory per collection, named as in `GET /__sandbox/collections/:name`. */
export type Factories = {
  readonly [Name in CollectionName]: (
    overrides?: Partial<RecordOf<Name>>,
    options?: FactoryOptions,
  ) => Promise<RecordOf<Name>>
}

interface StoreParts {
  faker: Faker
  create: FactoryContext['create']
  exists: (target: CollectionName, id: string) => boolean
}

interface Dependencies {
  store(session?: string): Promise<Store>
  seed: number
  now(): Date
}

/** The factories of a sandbox. */
export function createFactories(dependencies: Dependencies): Factories {
  // One seeded generator per store: a session's records are the same on every run, and
  // a reset (a new store) starts the sequence over. What a store's records are made
  // with is made once per store, not once per record.
  const parts = new WeakMap<Store, StoreParts>()
  const partsOf = (store: Store): StoreParts => {
    let found = parts.get(store)
    if (!found) {
      found = {
        faker: createEnglishFaker(dependencies.seed),
        create: (other, values) => create(store, other, values),
        exists: (target, id) => store[target].has(id),
      }
      parts.set(store, found)
    }
    return found
  }

  // Synchronous from the store on: a record and those it needs are made in one go.
  function create<Name extends CollectionName>(
    store: Store,
    name: Name,
    overrides: Partial<RecordOf<Name>> = {},
  ): RecordOf<Name> {
    const { faker, create, exists } = partsOf(store)
    const context: FactoryContext = { store, faker, now: dependencies.now(), create }
    // Overrides that point at nothing fail before any default record is created for them.
    const dangling = checkReferences(name, overrides, name, exists)
    if (dangling.length > 0) {
      throw new Error(`Failed to create a record in ${name}:\n  ${dangling.join('\n  ')}`)
    }
    const values = { ...(defaults[name] as Defaults[Name])(overrides, context), ...overrides }
    const schema = strictSchemas()[name]
    // The plain parse takes zod's compiled fast path; the messages need `reportInput`.
    const quick = schema.safeParse(values)
    const parsed = quick.success ? quick : schema.safeParse(values, { reportInput: true })
    const problems = parsed.success
      ? checkReferences(name, parsed.data, name, exists)
      : parsed.error.issues.flatMap((issue) =>
          describeIssue(issue, name, (path) => fieldsAt(schema, path)),
        )
    if (problems.length > 0) {
      throw new Error(`Failed to create a record in ${name}:\n  ${problems.join('\n  ')}`)
    }
    // Parsed by the strict schema: the table keeps it without parsing it again.
    const table = store[name] as unknown as { addParsed(record: object): object }
    return { ...table.addParsed(parsed.data as object) } as RecordOf<Name>
  }

  const factories = {} as Record<CollectionName, unknown>
  for (const name of Object.keys(strictSchemas()) as CollectionName[]) {
    factories[name] = async (overrides: object = {}, options: FactoryOptions = {}) =>
      create(await dependencies.store(options.session), name, overrides as never)
  }
  return factories as Factories
}
