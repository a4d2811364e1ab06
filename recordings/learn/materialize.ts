/**
 * @module
 * The learned facts as records of a session: those of the scenario extended changed (or removed)
 * only where the recording says so, new ones made by the seeded factories, new users given the
 * credentials the sign-ins showed or made-up ones in the personas' format. What it makes up
 * comes from the collection definitions (schemas, `references`) and the operations' writes.
 */
import { dequal } from 'dequal'
import { base64url } from '../../fixtures/personas.ts'
import type { Fields } from '../../mocks/core/index.ts'
import type { Factories } from '../../mocks/factories/create-factories.ts'
import {
  type CollectionName,
  collectionDefinitions,
  collectionNames,
  keyParts,
  references,
  type User,
} from '../../mocks/model/schemas.ts'
import type { Store } from '../../mocks/model/store.ts'
import type { Table } from '../../mocks/model/table.ts'
import type { z } from '../../mocks/model/zod.ts'
import { type Fact, type Facts, outOf } from './facts.ts'

/** A learned user's credentials. */
export interface LearnedSignIn {
  publicId: string
  refreshToken: string
  idpCode: string
}

type Role = User['roles'][number]
type Write = Fact['made'][string]

/** Whether `value` is none of the values `excluded`. */
const allowed = (excluded: readonly unknown[], value: unknown) =>
  !excluded.some((other) => dequal(other, value))
/** The values a field's schema lists (an enum's), in its order. */
const choicesOf = (schema: z.core.$ZodType | undefined) => [...(schema?._zod.values ?? [])]
/** Users' roles in the schema's order: a user shown in two fields with roles is the first's. */
const ROLES = choicesOf(collectionDefinitions.users.schema.shape.roles._zod.def.element)

/** Writes the state before the first exchange; the exchanges behind each record, and sign-ins. */
export async function materialize(
  facts: Facts,
  store: Store,
  factories: Factories,
  { session, now }: { session: string; now: Date },
): Promise<{ origins: Map<string, number[]>; signIns: LearnedSignIn[] }> {
  const at = { session }
  const origins = new Map<string, number[]>()
  const of = (name: CollectionName) => [...facts.of(name).values()]
  const table = (name: CollectionName) => store[name] as unknown as Table<Fields>
  const create = (name: CollectionName, values: Fields) =>
    (factories[name] as (values: Fields, options: typeof at) => Promise<Fields>)(values, at)
  const note = (name: CollectionName, key: string, fact: Fact) =>
    origins.set(`${name}:${key}`, [...(origins.get(`${name}:${key}`) ?? []), ...fact.origins])
  // The `fields` that differ set, then the writes `made`.
  const update = async (name: CollectionName, key: string, fields: Fields, made: Write[] = []) => {
    const record = table(name).get(key)!
    const changed = Object.entries(fields).filter(([field, value]) => !dequal(record[field], value))
    if (changed.length === 0 && made.length === 0) return
    await table(name).update(key, (draft) => {
      Object.assign(draft, Object.fromEntries(changed))
      for (const write of made) write(draft, now)
    })
  }
  // Someone (other than `excluded`) to own or host a record: a user of the scenario, or a new one.
  const someoneElse = async (excluded: readonly unknown[], role: Role | undefined) => {
    const other = (user: User) => !excluded.includes(user.publicId)
    const found =
      (role && store.users.find((user) => user.roles.includes(role) && other(user))) ??
      store.users.find(other)
    return found?.publicId ?? (await factories.users(role ? { roles: [role] } : {}, at)).publicId
  }

  /** The fields of `name`'s `fact` at the start beside `known`'s, and the writes that made it. */
  async function startOf(name: CollectionName, fact: Fact, known: Fields | undefined) {
    const [{ schema }, parts] = [collectionDefinitions[name], keyParts[name]]
    const fields: Fields = {}
    const made: Write[] = []
    const shape = schema.shape as Record<string, z.core.$ZodType>
    for (const field in shape) {
      const excluded = fact.excluded[field]
      const bounds = fact.bounds[field]
      const value = known?.[field]
      if (Object.hasOwn(fact.initial, field)) fields[field] = fact.initial[field]
      else if (bounds) {
        if (typeof value !== 'number' || outOf(bounds, value))
          fields[field] = bounds.min ?? Math.floor((bounds.below ?? 1) / 2)
      } else if (!excluded || (value !== undefined && allowed(excluded, value))) continue
      else if (fact.made[field]) made.push(fact.made[field])
      else if (references[name]?.some((one) => one.field === field)) {
        // Someone of the role declared, or like the user it named.
        const reference = references[name]!.find((one) => one.field === field)!
        const like = reference.roles?.[0] ?? store.users.get(String(value))?.roles[0]
        fields[field] = await someoneElse(excluded, like)
      } else {
        const choice = choicesOf(shape[field]).find((one) => allowed(excluded, one))
        if (choice !== undefined) fields[field] = choice
      }
    }
    const keys = parts && fact.key.split(':')
    for (const [index, part] of (parts ?? []).entries()) fields[part as string] = keys![index]
    // A list of references: those pinned out (`<list>:<id>` false) removed, those pinned in
    // added (an item as the write that adds it makes it), filled up to one per declared role.
    for (const { field, roles = [] } of references[name] ?? []) {
      if (!field.includes('[]')) continue
      const [list, by] = field.split('[]') as [string, string]
      const idOf = (item: unknown) => (by ? (item as Fields)[by.slice(1)] : item)
      const pins = Object.entries(fact.initial).filter(([pin]) => pin.startsWith(`${list}:`))
      const ids = (yes: boolean) =>
        pins.filter(([, pin]) => pin === yes).map(([pin]) => pin.slice(list.length + 1))
      const items = ((known?.[list] ?? []) as unknown[]).filter(
        (item) => !ids(false).includes(idOf(item) as string),
      )
      for (const id of ids(true)) {
        if (items.some((item) => idOf(item) === id)) continue
        if (!by) items.push(id)
        else if (fact.made[`${list}:${id}`]) made.push(fact.made[`${list}:${id}`]!)
      }
      while (items.length < roles.length) {
        items.push(await someoneElse([...ids(false), ...items], roles[items.length]))
      }
      fields[list] = items
    }
    return { fields, made }
  }

  const signIns = await writeUsers(of('users'))
  for (const name of collectionNames) {
    if (name === 'users') continue
    const { key } = collectionDefinitions[name]
    for (const fact of of(name)) {
      if (fact.initialExists === false && table(name).delete(fact.key)) note(name, fact.key, fact)
      if (fact.initialExists !== true) continue
      const known = table(name).get(fact.key)
      const { fields, made } = await startOf(name, fact, known)
      if (!known) await create(name, { [key]: fact.key, ...fields })
      if (known || made.length > 0) await update(name, fact.key, known ? fields : {}, made)
      note(name, fact.key, fact)
      for (const find of Object.values(fact.finds)) await addMatches(fact, find)
    }
  }
  return { origins, signIns }

  /**
   * The records pointing at `fact`'s that the lookups needed (a listing's pending reviews): made
   * when too few; those past the number needed changed to match no more if an answer found none.
   */
  async function addMatches(fact: Fact, { collection, link, where }: Fact['finds'][string]) {
    const { key, schema } = collectionDefinitions[collection]
    const needed = (fact.current[`${collection}:needed`] as number | undefined) ?? 0
    const matches = (record: Fields) =>
      record[link] === fact.key && Object.entries(where).every(([f, v]) => record[f] === v)
    const found = table(collection).filter(matches)
    for (let count = found.length; count < needed; count++) {
      const record = await create(collection, { [link]: fact.key, ...where })
      note(collection, String(record[key]), fact)
    }
    if (fact.current[`${collection}:none`] !== true) return
    const shape = schema.shape as Record<string, z.core.$ZodType>
    const other = Object.fromEntries(
      Object.entries(where).map(([f, v]) => [f, choicesOf(shape[f]).find((c) => c !== v)]),
    )
    for (const record of found.slice(needed)) {
      await update(collection, String(record[key]), other)
      note(collection, String(record[key]), fact)
    }
  }

  /** Writes the users; a new one is made as the first role the fields naming them declare. */
  async function writeUsers(users: readonly Fact[]) {
    const learned: LearnedSignIn[] = []
    const shown = new Map<unknown, Role[]>()
    for (const name of collectionNames) {
      for (const { field, roles } of references[name] ?? []) {
        if (!roles || field.includes('[]')) continue
        for (const fact of of(name)) {
          const id = fact.initial[field]
          shown.set(id, [...(shown.get(id) ?? []), ...roles])
        }
      }
    }
    const codes = new Set(users.map((fact) => fact.initial.idpCode))
    const tokens = new Set(users.map((fact) => fact.initial.refreshToken))
    // A made-up credential never takes one the recording showed for someone else.
    const unique = (value: string, taken: Set<unknown>) => {
      let candidate = value
      for (let n = 2; taken.has(candidate); n++) {
        candidate = value.includes('.') ? value.replace('.', `_${n}.`) : `${value}_${n}`
      }
      taken.add(candidate)
      return candidate
    }
    for (const fact of users) {
      if (fact.initialExists !== true) continue
      const admin = fact.initial.admin as boolean | undefined
      const known = store.users.get(fact.key)
      if (known) {
        const roles = known.roles.filter((role) => role !== 'admin' || admin !== false)
        if (admin === true && !roles.includes('admin')) roles.push('admin')
        const { fields } = await startOf('users', fact, known)
        if (Object.hasOwn(fact.initial, 'refreshToken')) fields.refreshTokenRevokedAt = null
        await update('users', fact.key, { roles, ...fields })
        note('users', fact.key, fact)
        continue
      }
      const credentialsOf = (publicId: string) => {
        const slug = publicId.replace(/[^A-Za-z0-9_]/g, '_')
        return {
          refreshToken:
            (fact.initial.refreshToken as string | undefined) ??
            unique(`rt_${slug}.${base64url(`sandbox-refresh:${publicId}`)}`, tokens),
          idpCode: (fact.initial.idpCode as string | undefined) ?? unique(`idp_${slug}`, codes),
        }
      }
      // Known by a sign-in only (`~`): the factory picks the id, the credentials follow from it.
      const id = fact.key.startsWith('~') ? undefined : fact.key
      const given = id === undefined ? undefined : credentialsOf(id)
      const role = ROLES.find((one) => shown.get(fact.key)?.includes(one as Role)) as Role
      const values = {
        ...(id && { publicId: id }),
        ...(role && { roles: [role] }),
        refreshTokenRevokedAt: null,
        ...given,
      }
      const created = await factories.users(values, at)
      const credentials = given ?? credentialsOf(created.publicId)
      const roles = admin === true ? [...created.roles, 'admin' as const] : created.roles
      await update('users', created.publicId, { ...credentials, roles })
      learned.push({ publicId: created.publicId, ...credentials })
      note('users', created.publicId, fact)
    }
    return learned
  }
}
