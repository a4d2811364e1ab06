/**
 * @module
 * The zod schema of every collection (docs/reference/types-and-data.md), with the field that
 * identifies a record: each gives the record's TypeScript type and the collection that stores it.
 */
import { email } from './shapes.ts'
import { nonEmpty, z } from './zod.ts'

const isoDateTime = z.iso.datetime()
const strings = z.array(z.string())
const decision = z.enum(['pending', 'approved', 'rejected'])

/** A collection whose records have `shape`, identified by `key`: lookups by it never scan. */
const collection = <Shape extends z.core.$ZodLooseShape, Key extends keyof Shape & string>(
  key: Key,
  shape: Shape,
) => ({ key, schema: z.object(shape) })

/** Every collection, with the field that identifies a record (see `table.ts`). */
export const collectionDefinitions = {
  users: collection('publicId', {
    publicId: nonEmpty(),
    email: email(),
    displayName: nonEmpty(),
    roles: z.array(z.enum(['admin', 'host', 'guest', 'ambassador'])),
    createdAt: isoDateTime,
    /** Set on personas only: the refresh token `POST /auth/refresh` accepts for this user. */
    refreshToken: z.nullable(z.string()),
    /** Set on personas only: the code `POST /auth/idp/complete` accepts for this user. */
    idpCode: z.nullable(z.string()),
    /** When the refresh token was revoked; a revoked token gets 401 from `POST /auth/refresh`. */
    refreshTokenRevokedAt: z.nullable(isoDateTime),
  }),
  paymentAccounts: collection('userId', {
    userId: nonEmpty(),
    payouts_enabled: z.boolean(),
    charges_enabled: z.boolean(),
    disabled_reason: z.nullable(z.string()),
    requirements: z.object({
      past_due: strings,
      currently_due: strings,
      pending_verification: strings,
      eventually_due: strings,
    }),
  }),
  ambassadorApplications: collection('email', {
    email: email(),
    fullName: nonEmpty(),
    status: decision,
    submittedAt: isoDateTime,
    decidedAt: z.nullable(isoDateTime),
    note: z.nullable(z.string()),
  }),
  venues: collection('id', {
    id: nonEmpty(),
    name: nonEmpty(),
    city: nonEmpty(),
    ownerId: z.nullable(z.string()),
    claimStatus: z.enum(['unclaimed', 'claim_requested', 'claimed']),
    contactEmail: email(),
  }),
  reviews: collection('id', {
    id: nonEmpty(),
    listingId: nonEmpty(),
    authorId: nonEmpty(),
    rating: z.number().check(z.int(), z.gte(1), z.lte(5)),
    text: z.string(),
    status: decision,
    reason: z.nullable(z.string()),
  }),
  follows: collection('id', {
    /** `<followerId>:<followeeId>` (`keyParts`), so that "already following" is a lookup by id. */
    id: nonEmpty(),
    followerId: nonEmpty(),
    followeeId: nonEmpty(),
    createdAt: isoDateTime,
  }),
  bookings: collection('id', {
    id: nonEmpty(),
    listingId: nonEmpty(),
    guestId: nonEmpty(),
    hostId: nonEmpty(),
    status: z.enum(['pending', 'accepted', 'declined', 'paid', 'refunded']),
    startsAt: isoDateTime,
    endsAt: isoDateTime,
    /** In major units of `currency`. */
    amount: z.number().check(z.gte(0)),
    currency: z.string().check(z.length(3)),
    declineReason: z.nullable(z.string()),
  }),
  contracts: collection('id', {
    id: nonEmpty(),
    bookingId: nonEmpty(),
    partyIds: z.array(nonEmpty()).check(z.minLength(1)),
    signatures: z.array(
      z.object({ userId: nonEmpty(), fullName: nonEmpty(), signedAt: isoDateTime }),
    ),
    status: z.enum(['pending', 'signed']),
  }),
  checkoutSessions: collection('id', {
    id: nonEmpty(),
    bookingId: nonEmpty(),
    userId: nonEmpty(),
    amount: z.number().check(z.gte(0)),
    currency: z.string().check(z.length(3)),
    status: z.enum(['open', 'complete', 'expired']),
    createdAt: isoDateTime,
  }),
  notifications: collection('id', {
    id: nonEmpty(),
    userId: nonEmpty(),
    kind: nonEmpty(),
    title: nonEmpty(),
    body: z.string(),
    createdAt: isoDateTime,
    readAt: z.nullable(isoDateTime),
    archivedAt: z.nullable(isoDateTime),
  }),
  outbox: collection('id', {
    id: nonEmpty(),
    to: email(),
    subject: nonEmpty(),
    kind: nonEmpty(),
    createdAt: isoDateTime,
  }),
  refunds: collection('id', {
    id: nonEmpty(),
    bookingId: nonEmpty(),
    amount: z.number().check(z.gt(0)),
    createdAt: isoDateTime,
  }),
}

export type CollectionName = keyof typeof collectionDefinitions
export const collectionNames = Object.keys(collectionDefinitions) as CollectionName[]

/** The record type of each collection. */
export type RecordOf<Name extends CollectionName> = z.infer<
  (typeof collectionDefinitions)[Name]['schema']
>
export type User = RecordOf<'users'>
export type Venue = RecordOf<'venues'>
export type Booking = RecordOf<'bookings'>

/** The fields a key is made of, joined by `:`. */
export const keyParts: { readonly [Name in CollectionName]?: readonly (keyof RecordOf<Name>)[] } = {
  follows: ['followerId', 'followeeId'],
}

/**
 * A field pointing at a record of `target`: its name, `[]` for an array whose every item does,
 * `[].<name>` for a field of each item. `roles`: what a user made up for it, or shown in it, is.
 */
interface Reference<Name extends CollectionName> {
  field: `${keyof RecordOf<Name> & string}${'' | '[]' | `[].${string}`}`
  target: CollectionName
  roles?: readonly User['roles'][number][]
}

/** The fields of each collection that point at other records, in the order they are checked. */
export const references: { readonly [Name in CollectionName]?: readonly Reference<Name>[] } = {
  paymentAccounts: [{ field: 'userId', target: 'users' }],
  venues: [{ field: 'ownerId', target: 'users' }],
  reviews: [
    { field: 'listingId', target: 'venues' },
    { field: 'authorId', target: 'users' },
  ],
  follows: [
    { field: 'followerId', target: 'users' },
    { field: 'followeeId', target: 'users' },
  ],
  bookings: [
    { field: 'listingId', target: 'venues' },
    { field: 'guestId', target: 'users', roles: ['guest'] },
    { field: 'hostId', target: 'users', roles: ['host'] },
  ],
  contracts: [
    { field: 'bookingId', target: 'bookings' },
    { field: 'partyIds[]', target: 'users', roles: ['guest', 'guest'] },
    { field: 'signatures[].userId', target: 'users' },
  ],
  checkoutSessions: [
    { field: 'bookingId', target: 'bookings' },
    { field: 'userId', target: 'users' },
  ],
  notifications: [{ field: 'userId', target: 'users' }],
  refunds: [{ field: 'bookingId', target: 'bookings' }],
}

/** Plain records of every collection: what a scenario produces and a snapshot holds. */
export type DataSet = { [Name in CollectionName]: RecordOf<Name>[] }
