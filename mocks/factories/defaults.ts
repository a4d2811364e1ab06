/**
 * @module
 * The seeded defaults of each factory; open references point at a persona (the host, the
 * guest) when the session has one, or at a record made for the purpose.
 */
import {
  bookingNotification,
  declineReasons,
  durations,
  hourlyRates,
  reviewTexts,
  startHours,
  venueKinds,
  venueWords,
} from '../../fixtures/marketplace-text.ts'
import type { Faker } from '../model/english-faker.ts'
import type { Booking, CollectionName, RecordOf, User, Venue } from '../model/schemas.ts'
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

const HOUR = 3_600_000
const DAY = 24 * HOUR

function person(context: FactoryContext) {
  const firstName = context.faker.person.firstName()
  const lastName = context.faker.person.lastName()
  const local = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '')
  return {
    name: `${firstName} ${lastName}`,
    email: `${local}.${context.store.nextId('m').slice(2)}@example.com`,
  }
}

function userWithRole(context: FactoryContext, role: 'host' | 'guest', persona: string): User {
  return (
    context.store.users.get(persona) ??
    context.store.users.find((user) => user.roles.includes(role)) ??
    context.create('users', { roles: [role] })
  )
}

function venueOf(context: FactoryContext, hostId: string | undefined): Venue {
  const owned = hostId ? context.store.venues.find((venue) => venue.ownerId === hostId) : undefined
  return owned ?? context.create('venues', hostId ? { ownerId: hostId } : {})
}

function slot(context: FactoryContext) {
  const { faker } = context
  const day = new Date(context.now.getTime() + faker.number.int({ min: 7, max: 60 }) * DAY)
  day.setUTCHours(faker.helpers.arrayElement(startHours), 0, 0, 0)
  const hours = faker.helpers.arrayElement(durations)
  const amount = hours * faker.helpers.arrayElement(hourlyRates)
  return {
    startsAt: day.toISOString(),
    endsAt: new Date(day.getTime() + hours * HOUR).toISOString(),
    amount,
  }
}

function bookingFor(
  context: FactoryContext,
  bookingId: string | undefined,
  status: Booking['status'],
  between: readonly string[] = [],
) {
  if (bookingId) {
    const found = context.store.bookings.get(bookingId)
    if (found) return found
  }
  const [hostId, guestId] = between
  return context.create('bookings', { status, ...(hostId && guestId && { hostId, guestId }) })
}

export type Defaults = {
  [Name in CollectionName]: (
    overrides: Partial<RecordOf<Name>>,
    context: FactoryContext,
  ) => RecordOf<Name>
}

export const defaults: Defaults = {
  users(_, context) {
    const { name, email } = person(context)
    return {
      publicId: context.store.nextId('usr'),
      email,
      displayName: name,
      roles: ['guest'],
      createdAt: context.now.toISOString(),
      refreshToken: null,
      idpCode: null,
      refreshTokenRevokedAt: null,
    }
  },
  paymentAccounts(overrides, context) {
    return {
      userId: overrides.userId ?? context.create('users', { roles: ['host'] }).publicId,
      payouts_enabled: true,
      charges_enabled: true,
      disabled_reason: null,
      requirements: {
        past_due: [],
        currently_due: [],
        pending_verification: [],
        eventually_due: [],
      },
    }
  },
  ambassadorApplications(_, context) {
    const { name, email } = person(context)
    return {
      email,
      fullName: name,
      status: 'pending',
      submittedAt: context.now.toISOString(),
      decidedAt: null,
      note: null,
    }
  },
  venues(overrides, context) {
    const id = context.store.nextId('ven')
    const ownerId = overrides.ownerId ?? null
    return {
      id,
      name: `${context.faker.helpers.arrayElement(venueWords)} ${context.faker.helpers.arrayElement(venueKinds)}`,
      city: context.faker.location.city(),
      ownerId,
      claimStatus: ownerId ? 'claimed' : 'unclaimed',
      contactEmail: `bookings@${id.replace('_', '-')}.example.com`,
    }
  },
  reviews(overrides, context) {
    return {
      id: context.store.nextId('rev'),
      listingId: overrides.listingId ?? venueOf(context, undefined).id,
      authorId: overrides.authorId ?? userWithRole(context, 'guest', 'usr_guest').publicId,
      rating: context.faker.number.int({ min: 3, max: 5 }),
      text: context.faker.helpers.arrayElement(reviewTexts),
      status: 'pending',
      reason: null,
    }
  },
  follows(overrides, context) {
    const followerId = overrides.followerId ?? context.create('users').publicId
    const followeeId = overrides.followeeId ?? userWithRole(context, 'host', 'usr_host').publicId
    return {
      id: `${followerId}:${followeeId}`,
      followerId,
      followeeId,
      createdAt: context.now.toISOString(),
    }
  },
  bookings(overrides, context) {
    const listing = overrides.listingId ? context.store.venues.get(overrides.listingId) : undefined
    const hostId =
      overrides.hostId ?? listing?.ownerId ?? userWithRole(context, 'host', 'usr_host').publicId
    const venue = listing ?? venueOf(context, hostId)
    const status = overrides.status ?? 'pending'
    return {
      id: context.store.nextId('bkg'),
      listingId: venue.id,
      guestId: overrides.guestId ?? userWithRole(context, 'guest', 'usr_guest').publicId,
      hostId,
      status,
      ...slot(context),
      currency: 'EUR',
      declineReason:
        status === 'declined' ? context.faker.helpers.arrayElement(declineReasons) : null,
    }
  },
  contracts(overrides, context) {
    // Its parties are its booking's host and guest: a booking between those given, if two are.
    const booking = bookingFor(context, overrides.bookingId, 'accepted', overrides.partyIds)
    return {
      id: context.store.nextId('ctr'),
      bookingId: booking.id,
      partyIds: [booking.hostId, booking.guestId],
      signatures: [],
      status: 'pending',
    }
  },
  checkoutSessions(overrides, context) {
    const booking = bookingFor(context, overrides.bookingId, 'accepted')
    return {
      id: context.store.nextId('cs'),
      bookingId: booking.id,
      userId: booking.guestId,
      amount: booking.amount,
      currency: booking.currency,
      status: 'open',
      createdAt: context.now.toISOString(),
    }
  },
  notifications(overrides, context) {
    const userId = overrides.userId ?? userWithRole(context, 'host', 'usr_host').publicId
    const booking =
      context.store.bookings.find((candidate) => candidate.hostId === userId) ??
      context.create('bookings', { hostId: userId })
    const venue = context.store.venues.get(booking.listingId)
    const text = bookingNotification('booking.requested', {
      guest: context.store.users.get(booking.guestId)?.displayName ?? 'A guest',
      host: context.store.users.get(booking.hostId)?.displayName ?? 'The host',
      venue: venue?.name ?? booking.listingId,
      city: venue?.city ?? '',
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      amount: booking.amount,
      currency: booking.currency,
    })
    return {
      id: context.store.nextId('ntf'),
      userId,
      kind: 'booking.requested',
      ...text,
      createdAt: context.now.toISOString(),
      readAt: null,
      archivedAt: null,
    }
  },
  outbox(_, context) {
    return {
      id: context.store.nextId('msg'),
      to: person(context).email,
      subject: 'Your booking request was received',
      kind: 'booking.requested',
      createdAt: context.now.toISOString(),
    }
  },
  refunds(overrides, context) {
    const booking = bookingFor(context, overrides.bookingId, 'paid')
    return {
      id: context.store.nextId('rfd'),
      bookingId: booking.id,
      amount: booking.amount,
      createdAt: context.now.toISOString(),
    }
  },
}
