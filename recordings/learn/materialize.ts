/**
 * @module
 * Turns the learned facts into records of a session: records of the scenario extended are
 * changed (or removed) only where the recording says so, new ones are made by the
 * factories (seeded: every field the recording did not show gets the factory's value),
 * and the session is exported as a scenario file, as a saved snapshot would be.
 */
import { dequal } from 'dequal'
import type { Sandbox } from '../../mocks/core/sandbox.ts'
import type { Factories } from '../../mocks/factories/create-factories.ts'
import type { CollectionName, User } from '../../mocks/model/schemas.ts'
import type { Store } from '../../mocks/model/store.ts'
import type { Fact, Facts } from './facts.ts'
import { type LearnedSignIn, type Writer, writeUsers } from './learned-users.ts'

export type { LearnedSignIn }

/** The sandbox a scenario is learned in: the core, with the factories that make records. */
export type LearnSandbox = Sandbox & { readonly factories: Factories }

export interface Materialized {
  /** Exchange indexes behind each record, by `<collection>:<key>` of the file. */
  origins: Map<string, number[]>
  signIns: LearnedSignIn[]
}

const ORDER: CollectionName[] = [
  'users',
  'paymentAccounts',
  'ambassadorApplications',
  'venues',
  'bookings',
  'follows',
  'contracts',
  'notifications',
]

/** The value a field had at the start: pinned, or the first allowed of `candidates`. */
function startValue(fact: Fact, field: string, candidates: readonly unknown[], current?: unknown) {
  if (Object.hasOwn(fact.initial, field)) return { value: fact.initial[field] }
  const excluded = fact.excluded[field] ?? []
  const allowed = (value: unknown) => !excluded.some((other) => dequal(other, value))
  if (current !== undefined && allowed(current)) return undefined
  if (excluded.length === 0) return undefined
  const value = candidates.find(allowed)
  return value === undefined ? undefined : { value }
}

/** Writes the facts into `session` of `sandbox`: the state before the first exchange. */
export async function materialize(
  facts: Facts,
  sandbox: LearnSandbox,
  options: { session: string; now: Date },
): Promise<Materialized> {
  const { session, now } = options
  const store: Store = await sandbox.store(session)
  const factories = sandbox.factories
  const origins = new Map<string, number[]>()
  const at = { session }
  const of = (name: CollectionName) => [...facts.of(name).values()]
  const note = (name: CollectionName, key: string, fact: Fact) => {
    const id = `${name}:${key}`
    const earlier = origins.get(id)
    origins.set(id, earlier ? [...earlier, ...fact.origins] : fact.origins)
  }
  const existing = (fact: Fact) => fact.initialExists === true
  const update = async <Name extends CollectionName>(
    name: Name,
    key: string,
    fields: Record<string, unknown>,
  ) => {
    const table = store[name] as unknown as {
      get(key: string): Record<string, unknown> | undefined
      update(key: string, mutate: (draft: Record<string, unknown>) => void): Promise<unknown>
    }
    const record = table.get(key)!
    const changed = Object.entries(fields).filter(([field, value]) => !dequal(record[field], value))
    if (changed.length === 0) return
    await table.update(key, (draft) => {
      for (const [field, value] of changed) draft[field] = value
    })
  }
  const remove = (name: CollectionName, fact: Fact) => {
    const table = store[name] as unknown as { delete(key: string): boolean }
    if (fact.initialExists === false && table.delete(fact.key)) note(name, fact.key, fact)
  }

  // Someone (other than `excluded`) to own or host a record: a user of the scenario, or a new one.
  const someoneElse = async (excluded: readonly unknown[], role: User['roles'][number]) => {
    const found =
      store.users.find((user) => user.roles.includes(role) && !excluded.includes(user.publicId)) ??
      store.users.find((user) => !excluded.includes(user.publicId))
    return found?.publicId ?? (await factories.users({ roles: [role] }, at)).publicId
  }
  const writer: Writer = { store, factories, at, note, update }

  // Users first: everything else points at them.
  const hosts = new Set(of('bookings').map((fact) => fact.initial.hostId))
  const signIns = await writeUsers(writer, of('users'), hosts)

  for (const fact of of('paymentAccounts')) {
    remove('paymentAccounts', fact)
    if (!existing(fact)) continue
    const fields: Record<string, unknown> = {}
    for (const field of ['payouts_enabled', 'charges_enabled', 'disabled_reason', 'requirements']) {
      if (Object.hasOwn(fact.initial, field)) fields[field] = fact.initial[field]
    }
    if (store.paymentAccounts.has(fact.key)) await update('paymentAccounts', fact.key, fields)
    else await factories.paymentAccounts({ userId: fact.key, ...fields }, at)
    note('paymentAccounts', fact.key, fact)
  }

  for (const fact of of('ambassadorApplications')) {
    remove('ambassadorApplications', fact)
    if (!existing(fact)) continue
    const known = store.ambassadorApplications.get(fact.key)
    const status = startValue(fact, 'status', ['pending', 'approved', 'rejected'], known?.status)
    const fields = status ? { status: status.value as 'pending' } : {}
    if (known) await update('ambassadorApplications', fact.key, fields)
    else await factories.ambassadorApplications({ email: fact.key, ...fields }, at)
    note('ambassadorApplications', fact.key, fact)
  }

  for (const fact of of('venues')) {
    if (!existing(fact)) continue
    const known = store.venues.get(fact.key)
    const claim = startValue(
      fact,
      'claimStatus',
      ['unclaimed', 'claim_requested', 'claimed'],
      known?.claimStatus,
    )
    const fields = claim ? { claimStatus: claim.value as 'claimed' } : {}
    if (known) await update('venues', fact.key, fields)
    else await factories.venues({ id: fact.key, ...fields }, at)
    note('venues', fact.key, fact)
    // The pending reviews the approvals and rejections decided, and no more if one found none.
    const needed = (fact.current['reviews:needed'] as number | undefined) ?? 0
    const pending = store.reviews.filter(
      (review) => review.listingId === fact.key && review.status === 'pending',
    )
    for (let count = pending.length; count < needed; count++) {
      const review = await factories.reviews({ listingId: fact.key, status: 'pending' }, at)
      note('reviews', review.id, fact)
    }
    if (fact.current['reviews:none'] === true) {
      for (const review of pending.slice(needed)) {
        await update('reviews', review.id, { status: 'approved' })
        note('reviews', review.id, fact)
      }
    }
  }

  for (const fact of of('bookings')) {
    remove('bookings', fact)
    if (!existing(fact)) continue
    const known = store.bookings.get(fact.key)
    const fields: Record<string, unknown> = {}
    for (const [field, role] of [
      ['hostId', 'host'],
      ['guestId', 'guest'],
    ] as const) {
      if (Object.hasOwn(fact.initial, field)) fields[field] = fact.initial[field]
      else if (fact.excluded[field]) {
        const value = known?.[field]
        if (value === undefined || fact.excluded[field].includes(value)) {
          fields[field] = await someoneElse(fact.excluded[field], role)
        }
      }
    }
    const status = startValue(
      fact,
      'status',
      ['pending', 'accepted', 'declined', 'paid', 'refunded'],
      known?.status,
    )
    if (status) fields.status = status.value
    const bounds = fact.bounds.amount
    if (bounds) {
      const amount = known?.amount
      const fits =
        amount !== undefined &&
        (bounds.min === undefined || amount >= bounds.min) &&
        (bounds.below === undefined || amount < bounds.below)
      if (!fits) fields.amount = bounds.min ?? Math.floor((bounds.below ?? 1) / 2)
    }
    if (known) await update('bookings', fact.key, fields)
    else await factories.bookings({ id: fact.key, ...fields }, at)
    note('bookings', fact.key, fact)
  }

  for (const fact of of('follows')) {
    remove('follows', fact)
    if (!existing(fact) || store.follows.has(fact.key)) continue
    const [followerId, followeeId] = fact.key.split(':') as [string, string]
    await factories.follows({ id: fact.key, followerId, followeeId }, at)
    note('follows', fact.key, fact)
  }

  for (const fact of of('contracts')) {
    remove('contracts', fact)
    if (!existing(fact)) continue
    const known = store.contracts.get(fact.key)
    const pinned = (prefix: string, value: boolean) =>
      Object.entries(fact.initial)
        .filter(([field, pin]) => field.startsWith(prefix) && pin === value)
        .map(([field]) => field.slice(prefix.length))
    const outside = pinned('partyIds:', false)
    const parties = [
      ...(known?.partyIds.filter((id) => !outside.includes(id)) ?? []),
      ...pinned('partyIds:', true),
    ].filter((id, index, all) => all.indexOf(id) === index)
    while (parties.length < 2) parties.push(await someoneElse([...outside, ...parties], 'guest'))
    const unsigned = pinned('signatures:', false)
    const signers = [
      ...(known?.signatures.map((signature) => signature.userId) ?? []),
      ...pinned('signatures:', true),
    ].filter((id, index, all) => all.indexOf(id) === index && !unsigned.includes(id))
    const signatures = signers.map(
      (userId) =>
        known?.signatures.find((signature) => signature.userId === userId) ?? {
          userId,
          fullName: store.users.get(userId)?.displayName ?? userId,
          signedAt: now.toISOString(),
        },
    )
    const status = parties.every((id) => signers.includes(id)) ? 'signed' : 'pending'
    const fields = { partyIds: parties, signatures, status } as const
    if (known) await update('contracts', fact.key, { ...fields })
    else {
      const booking = await factories.bookings(
        { hostId: parties[0]!, guestId: parties[1]!, status: 'accepted' },
        at,
      )
      await factories.contracts({ id: fact.key, bookingId: booking.id, ...fields }, at)
    }
    note('contracts', fact.key, fact)
  }

  for (const fact of of('notifications')) {
    remove('notifications', fact)
    if (!existing(fact)) continue
    const known = store.notifications.get(fact.key)
    const fields: Record<string, unknown> = {}
    if (Object.hasOwn(fact.initial, 'userId')) fields.userId = fact.initial.userId
    else if (fact.excluded.userId) {
      if (!known || fact.excluded.userId.includes(known.userId)) {
        fields.userId = await someoneElse(fact.excluded.userId, 'host')
      }
    }
    const archived = startValue(fact, 'archivedAt', [now.toISOString()], known?.archivedAt)
    if (archived) {
      fields.archivedAt = archived.value
      if (archived.value !== null) fields.readAt = archived.value
    }
    if (known) await update('notifications', fact.key, fields)
    else await factories.notifications({ id: fact.key, ...fields }, at)
    note('notifications', fact.key, fact)
  }

  for (const [name, known] of facts.all()) {
    if (known.size > 0 && !ORDER.includes(name)) {
      throw new Error(`Failed to learn a scenario: no writer for ${name}`)
    }
  }
  return { origins, signIns }
}
