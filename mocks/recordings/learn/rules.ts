/**
 * @module
 * What each operation's recorded answer says about the state before it, and what its
 * write changed: the checks of `mocks/operations/*.ts` read backwards. A 201 on a
 * decline means the booking existed, was pending and hosted by the caller; a 409 that it
 * was not pending; a 404 that it did not exist; a 403 that someone else hosted it.
 */
import type { Store } from '../../model/store.ts'
import { type Fact, type Facts, NotCovered } from './facts.ts'

/** What a rule is given about one exchange that passed the input checks. */
export interface RuleInput {
  facts: Facts
  /** The store of the scenario the learned one extends, as it was before any exchange. */
  base: Store
  status: number
  /** Decoded path parameters. */
  params: Record<string, string>
  /** The parsed JSON body (`{}` when none). */
  body: Record<string, unknown>
  /** Public id of the signed-in caller (operations that need one). */
  caller: string
  /** The answer's text, as recorded. */
  answer: string
  /** Whether the exchange wrote (not `dryRun=true`). */
  writes: boolean
}

type Rule = (input: RuleInput) => void

/** The JSON of `text`, or `undefined` when it is none. */
export function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Collections other records point at: a record of the base is not removed from them. */
const REFERENCED = new Set(['users', 'venues', 'bookings'])

function refused(status: number): never {
  throw new NotCovered(`status ${status}: the sandbox never answers it for this operation`)
}

/** The record did not exist: a 404. */
function missing(input: RuleInput, fact: Fact): void {
  if (fact.exists === undefined && REFERENCED.has(fact.collection)) {
    const table = input.base[fact.collection] as { has(key: string): boolean }
    if (table.has(fact.key)) {
      throw new NotCovered(
        `${fact.collection} ${fact.key} is part of the scenario extended, and other records point at it`,
      )
    }
  }
  input.facts.exists(fact, false)
}

const booking = (input: RuleInput, id: string) => input.facts.fact('bookings', id)

const declineBooking: Rule = (input) => {
  const { facts, status, caller } = input
  const fact = booking(input, input.params.bookingId!)
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  if (status === 403) return facts.exclude(fact, 'hostId', [caller])
  facts.pin(fact, 'hostId', caller)
  if (status === 409) return facts.exclude(fact, 'status', ['pending'])
  if (status !== 201) refused(status)
  facts.pin(fact, 'status', 'pending')
  if (input.writes) facts.set(fact, 'status', 'declined')
}

const createCheckoutSession: Rule = (input) => {
  const { facts, status, caller } = input
  const fact = booking(input, String(input.body.bookingId))
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  if (status === 403) return facts.exclude(fact, 'guestId', [caller])
  facts.pin(fact, 'guestId', caller)
  if (status === 409) return facts.exclude(fact, 'status', ['accepted'])
  if (status !== 201) refused(status)
  facts.pin(fact, 'status', 'accepted')
}

const testRefundWebhook: Rule = (input) => {
  const { facts, status } = input
  const fact = booking(input, String(input.body.bookingId))
  const amount = typeof input.body.amount === 'number' ? input.body.amount : undefined
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  if (status === 409) return facts.exclude(fact, 'status', ['paid'])
  facts.pin(fact, 'status', 'paid')
  if (status === 400) {
    if (amount === undefined) refused(status)
    return facts.bound(fact, 'amount', { below: amount })
  }
  if (status !== 201) refused(status)
  if (amount !== undefined) facts.bound(fact, 'amount', { min: amount })
  if (input.writes) facts.set(fact, 'status', 'refunded')
}

const archiveNotification: Rule = (input) => {
  const { facts, status, caller } = input
  const fact = facts.fact('notifications', input.params.id!)
  if (status === 404) {
    // Someone else's notification is a 404 too: one that exists keeps existing.
    const known = fact.exists ?? (input.base.notifications.has(fact.key) ? true : undefined)
    if (known) {
      facts.exists(fact, true)
      return facts.exclude(fact, 'userId', [caller])
    }
    return facts.exists(fact, false)
  }
  facts.exists(fact, true)
  facts.pin(fact, 'userId', caller)
  if (status === 409) return facts.exclude(fact, 'archivedAt', [null])
  if (status !== 201) refused(status)
  facts.pin(fact, 'archivedAt', null)
  if (input.writes) facts.set(fact, 'archivedAt', 'archived')
}

const signContract: Rule = (input) => {
  const { facts, status, caller } = input
  const fact = facts.fact('contracts', input.params.contractId!)
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  if (status === 403) return facts.pin(fact, `party:${caller}`, false)
  facts.pin(fact, `party:${caller}`, true)
  if (status === 409) return facts.pin(fact, `signed:${caller}`, true)
  if (status !== 201) refused(status)
  facts.pin(fact, `signed:${caller}`, false)
  if (input.writes) facts.set(fact, `signed:${caller}`, true)
}

const followUser: Rule = (input) => {
  const { facts, status, caller } = input
  const target = input.params.targetPublicId!
  if (status === 400 && target === caller) return
  const followee = facts.fact('users', target)
  if (status === 404) return missing(input, followee)
  facts.exists(followee, true)
  const edge = facts.fact('follows', `${caller}:${target}`)
  if (status === 409) return facts.exists(edge, true)
  if (status !== 201) refused(status)
  facts.exists(edge, false)
  if (input.writes) facts.create(edge)
}

const updateAmbassadorApplicationStatus: Rule = (input) => {
  const { facts, status } = input
  const fact = facts.fact('ambassadorApplications', input.params.email!.toLowerCase())
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  const decided = input.body.status
  if (status === 409) return facts.pin(fact, 'status', decided)
  if (status !== 201) refused(status)
  facts.exclude(fact, 'status', [decided])
  if (input.writes) facts.set(fact, 'status', decided)
}

const sendVenueClaimEmail: Rule = (input) => {
  const { facts, status } = input
  const fact = facts.fact('venues', input.params.listingId!)
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  if (status === 409) return facts.pin(fact, 'claimStatus', 'claimed')
  if (status !== 201) refused(status)
  facts.exclude(fact, 'claimStatus', ['claimed'])
  if (input.writes) facts.set(fact, 'claimStatus', 'claim_requested')
}

/**
 * Approving or rejecting takes one pending review of the listing. A venue's fact counts
 * the pending reviews the writes used up (`reviews:used`), how many it must have had at
 * the start (`reviews:needed`), and whether an answer showed that none was left
 * (`reviews:none`): reviews never become pending again, so none can be decided after it.
 */
const decideReview: Rule = (input) => {
  const { facts, status } = input
  const fact = facts.fact('venues', input.params.listingId!)
  if (status === 404) return missing(input, fact)
  facts.exists(fact, true)
  const count = (field: string) => (facts.known(fact, field)?.value as number | undefined) ?? 0
  const used = count('reviews:used')
  const needed = count('reviews:needed')
  if (status === 409) {
    if (needed > used) {
      throw new NotCovered(
        `venues ${fact.key}: had a pending review${fact.by['reviews:needed'] === undefined ? '' : ` by #${fact.by['reviews:needed'] + 1}`} that no write decided`,
      )
    }
    return facts.set(fact, 'reviews:none', true)
  }
  if (status !== 201) refused(status)
  if (facts.known(fact, 'reviews:none')) {
    throw new NotCovered(
      `venues ${fact.key}: had no pending review left${fact.by['reviews:none'] === undefined ? '' : ` by #${fact.by['reviews:none'] + 1}`}`,
    )
  }
  if (needed < used + 1) facts.set(fact, 'reviews:needed', used + 1)
  if (input.writes) facts.set(fact, 'reviews:used', used + 1)
}

const getAccountStatus: Rule = (input) => {
  const { facts, status, caller } = input
  const fact = facts.fact('paymentAccounts', caller)
  if (status === 404) return facts.exists(fact, false)
  if (status !== 200) refused(status)
  facts.exists(fact, true)
  const shown = parseJson(input.answer) as Record<string, unknown> | null | undefined
  if (shown === null || typeof shown !== 'object') return
  for (const field of ['payouts_enabled', 'charges_enabled'] as const) {
    if (typeof shown[field] === 'boolean') facts.pin(fact, field, shown[field])
  }
  if (shown.disabled_reason === null || typeof shown.disabled_reason === 'string') {
    facts.pin(fact, 'disabled_reason', shown.disabled_reason)
  }
  const requirements = shown.requirements as Record<string, unknown> | undefined
  const lists = ['past_due', 'currently_due', 'pending_verification', 'eventually_due']
  if (
    requirements &&
    lists.every(
      (list) =>
        Array.isArray(requirements[list]) &&
        (requirements[list] as unknown[]).every((item) => typeof item === 'string'),
    )
  ) {
    facts.pin(
      fact,
      'requirements',
      Object.fromEntries(lists.map((list) => [list, requirements[list]])),
    )
  }
}

/** The rule of each operation whose answer depends on records (sign-ins are learned apart). */
export const rules: Readonly<Record<string, Rule>> = {
  getAccountStatus,
  updateAmbassadorApplicationStatus,
  sendVenueClaimEmail,
  approveReview: decideReview,
  rejectReview: decideReview,
  followUser,
  declineBooking,
  signContract,
  createCheckoutSession,
  archiveNotification,
  testRefundWebhook,
}
