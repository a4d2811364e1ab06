/**
 * @module
 * The learned facts as records of a session: those of the scenario extended changed (or removed)
 * only where the recording says so, new ones made by the seeded factories, new users given the
 * credentials the sign-ins showed or made-up ones in the personas' format.
 */
import { dequal } from 'dequal'
import { base64url } from '../../fixtures/personas.ts'
import type { Factories } from '../../mocks/factories/create-factories.ts'
import { type CollectionName, collectionDefinitions, type User } from '../../mocks/model/schemas.ts'
import type { Store } from '../../mocks/model/store.ts'
import { type Fact, type Facts, outOf } from './facts.ts'

/** A learned user's credentials. */
export interface LearnedSignIn {
  publicId: string
  refreshToken: string
  idpCode: string
}

// biome-ignore lint/suspicious/noExplicitAny: records of any collection, as the store holds them
type Row = any
type Fields = Record<string, unknown>
type Role = User['roles'][number]
/** How a field is set at the start when its value was excluded: a list to pick from, or a role. */
type Choice = readonly unknown[] | Role
type More = (fact: Fact, known: Row, fields: Fields) => Fields | Promise<Fields>
type Table = {
  get(key: string): Row
  delete(key: string): boolean
  update(key: string, mutate: (draft: Row) => void): Promise<unknown>
}

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
  const table = (name: CollectionName) => store[name] as unknown as Table
  const note = (name: CollectionName, key: string, fact: Fact) =>
    origins.set(`${name}:${key}`, [...(origins.get(`${name}:${key}`) ?? []), ...fact.origins])
  const update = async (name: CollectionName, key: string, fields: Fields) => {
    const record = table(name).get(key)
    const changed = Object.entries(fields).filter(([field, value]) => !dequal(record[field], value))
    if (changed.length === 0) return
    await table(name).update(key, (draft) => Object.assign(draft, Object.fromEntries(changed)))
  }
  // Someone (other than `excluded`) to own or host a record: a user of the scenario, or a new one.
  const someoneElse = async (excluded: readonly unknown[], role: Role) => {
    const found =
      store.users.find((user) => user.roles.includes(role) && !excluded.includes(user.publicId)) ??
      store.users.find((user) => !excluded.includes(user.publicId))
    return found?.publicId ?? (await factories.users({ roles: [role] }, at)).publicId
  }
  /** The fields of `choices` at the start: pinned, or chosen when `known`'s is excluded. */
  const startValues = async (fact: Fact, known: Row, choices: Record<string, Choice>) => {
    const fields: Fields = {}
    for (const [field, choice] of Object.entries(choices)) {
      const excluded = fact.excluded[field] ?? []
      const allowed = (value: unknown) => !excluded.some((other) => dequal(other, value))
      if (Object.hasOwn(fact.initial, field)) fields[field] = fact.initial[field]
      else if (excluded.length === 0 || (known?.[field] !== undefined && allowed(known[field])))
        continue
      else if (typeof choice === 'string') fields[field] = await someoneElse(excluded, choice)
      else if (choice.some(allowed)) fields[field] = choice.find(allowed)
    }
    return fields
  }
  const pinnedOnly = (...fields: string[]) => Object.fromEntries(fields.map((field) => [field, []]))
  /** The collections written, each after those it points at, and their choices. */
  const choices: Partial<Record<CollectionName, Record<string, Choice>>> = {
    users: pinnedOnly('refreshToken', 'idpCode'),
    paymentAccounts: pinnedOnly(
      'payouts_enabled',
      'charges_enabled',
      'disabled_reason',
      'requirements',
    ),
    ambassadorApplications: { status: ['pending', 'approved', 'rejected'] },
    venues: { claimStatus: ['unclaimed', 'claim_requested', 'claimed'] },
    bookings: {
      hostId: 'host',
      guestId: 'guest',
      status: ['pending', 'accepted', 'declined', 'paid', 'refunded'],
    },
    follows: {},
    contracts: {},
    notifications: { userId: 'host', archivedAt: [now.toISOString()] },
  }
  const more: Partial<Record<CollectionName, More>> = {
    bookings: (fact, known) => {
      const bounds = fact.bounds.amount
      const fits = known?.amount !== undefined && !(bounds && outOf(bounds, known.amount))
      return bounds && !fits ? { amount: bounds.min ?? Math.floor((bounds.below ?? 1) / 2) } : {}
    },
    follows: (fact) => {
      const [followerId, followeeId] = fact.key.split(':') as [string, string]
      return { followerId, followeeId }
    },
    contracts: (fact, known) => contractFields(fact, known),
    notifications: (_fact, _known, { archivedAt }) =>
      archivedAt == null ? {} : { readAt: archivedAt },
  }

  const hosts = new Set(of('bookings').map((fact) => fact.initial.hostId))
  const signIns = await writeUsers(of('users'), hosts)
  const written = Object.keys(choices) as CollectionName[]
  for (const name of written.slice(1)) {
    for (const fact of of(name)) {
      if (fact.initialExists === false && table(name).delete(fact.key)) note(name, fact.key, fact)
      const known = table(name).get(fact.key)
      if (fact.initialExists !== true || (known && name === 'follows')) continue
      const chosen = await startValues(fact, known, choices[name]!)
      const fields = { ...chosen, ...(await more[name]?.(fact, known, chosen)) }
      if (known) await update(name, fact.key, fields)
      else {
        const create = factories[name] as (values: Fields, options: typeof at) => Promise<unknown>
        await create({ [collectionDefinitions[name].key]: fact.key, ...fields }, at)
      }
      note(name, fact.key, fact)
      if (name === 'venues') await addPendingReviews(fact)
    }
  }
  for (const [name, known] of Object.entries(facts.collections)) {
    if (known.size > 0 && !written.includes(name as CollectionName)) {
      throw new Error(`Failed to learn a scenario: no writer for ${name}`)
    }
  }
  return { origins, signIns }

  /** The pending reviews the approvals and rejections needed, no more if one found none. */
  async function addPendingReviews(fact: Fact) {
    const needed = (fact.current['reviews:needed'] as number | undefined) ?? 0
    const pending = store.reviews.filter(
      (review) => review.listingId === fact.key && review.status === 'pending',
    )
    for (let count = pending.length; count < needed; count++) {
      const review = await factories.reviews({ listingId: fact.key, status: 'pending' }, at)
      note('reviews', review.id, fact)
    }
    if (fact.current['reviews:none'] !== true) return
    for (const review of pending.slice(needed)) {
      await update('reviews', review.id, { status: 'approved' })
      note('reviews', review.id, fact)
    }
  }

  /** A contract's parties and signatures; a new one's accepted booking between the first two. */
  async function contractFields(fact: Fact, known: Row): Promise<Fields> {
    const pins = (prefix: string, value: boolean) =>
      Object.entries(fact.initial)
        .filter(([field, pin]) => field.startsWith(prefix) && pin === value)
        .map(([field]) => field.slice(prefix.length))
    const once = (id: string, index: number, all: string[]) => all.indexOf(id) === index
    const outside = pins('partyIds:', false)
    const parties = [
      ...(known?.partyIds.filter((id: string) => !outside.includes(id)) ?? []),
      ...pins('partyIds:', true),
    ].filter(once)
    while (parties.length < 2) parties.push(await someoneElse([...outside, ...parties], 'guest'))
    const unsigned = pins('signatures:', false)
    const signed = known?.signatures ?? []
    const signers = [
      ...signed.map((signature: Row) => signature.userId),
      ...pins('signatures:', true),
    ].filter((id, index, all) => once(id, index, all) && !unsigned.includes(id))
    const signatures = signers.map(
      (userId) =>
        signed.find((signature: Row) => signature.userId === userId) ?? {
          userId,
          fullName: store.users.get(userId)?.displayName ?? userId,
          signedAt: now.toISOString(),
        },
    )
    const status = parties.every((id) => signers.includes(id)) ? 'signed' : 'pending'
    if (known) return { partyIds: parties, signatures, status }
    const booking = await factories.bookings(
      { hostId: parties[0]!, guestId: parties[1]!, status: 'accepted' },
      at,
    )
    return { bookingId: booking.id, partyIds: parties, signatures, status }
  }

  /** Writes the users; `hosts` are those a booking needs as its host. */
  async function writeUsers(users: readonly Fact[], hosts: ReadonlySet<unknown>) {
    const learned: LearnedSignIn[] = []
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
        const fields: Fields = { roles, ...(await startValues(fact, known, choices.users!)) }
        if (Object.hasOwn(fact.initial, 'refreshToken')) fields.refreshTokenRevokedAt = null
        await update('users', fact.key, fields)
        note('users', fact.key, fact)
        continue
      }
      const roles: Role[] = [hosts.has(fact.key) ? 'host' : 'guest']
      if (admin === true) roles.push('admin')
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
      const values = { ...(id && { publicId: id }), roles, refreshTokenRevokedAt: null, ...given }
      const created = await factories.users(values, at)
      const credentials = given ?? credentialsOf(created.publicId)
      if (!given) await update('users', created.publicId, credentials)
      learned.push({ publicId: created.publicId, ...credentials })
      note('users', created.publicId, fact)
    }
    return learned
  }
}
