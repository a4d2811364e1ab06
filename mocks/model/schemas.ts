/**
 * @module
 * The zod schema of every collection (the collections of the README's data section). Each schema gives the
 * record's TypeScript type and the @msw/data collection that stores it.
 */
import { email } from './shapes.ts'
import { nonEmpty, z } from './zod.ts'

const isoDateTime = z.iso.datetime()

export const roleSchema = z.enum(['admin', 'host', 'guest', 'ambassador'])

export const userSchema = z.object({
  publicId: nonEmpty(),
  email: email(),
  displayName: nonEmpty(),
  roles: z.array(roleSchema),
  createdAt: isoDateTime,
  /** Set on personas only: the refresh token `POST /auth/refresh` accepts for this user. */
  refreshToken: z.nullable(z.string()),
  /** Set on personas only: the code `POST /auth/idp/complete` accepts for this user. */
  idpCode: z.nullable(z.string()),
  /** When the refresh token was revoked; a revoked token gets 401 from `POST /auth/refresh`. */
  refreshTokenRevokedAt: z.nullable(isoDateTime),
})

export const requirementsSchema = z.object({
  past_due: z.array(z.string()),
  currently_due: z.array(z.string()),
  pending_verification: z.array(z.string()),
  eventually_due: z.array(z.string()),
})

export const paymentAccountSchema = z.object({
  userId: nonEmpty(),
  payouts_enabled: z.boolean(),
  charges_enabled: z.boolean(),
  disabled_reason: z.nullable(z.string()),
  requirements: requirementsSchema,
})

export const ambassadorApplicationSchema = z.object({
  email: email(),
  fullName: nonEmpty(),
  status: z.enum(['pending', 'approved', 'rejected']),
  submittedAt: isoDateTime,
  decidedAt: z.nullable(isoDateTime),
  note: z.nullable(z.string()),
})

export const venueSchema = z.object({
  id: nonEmpty(),
  name: nonEmpty(),
  city: nonEmpty(),
  ownerId: z.nullable(z.string()),
  claimStatus: z.enum(['unclaimed', 'claim_requested', 'claimed']),
  contactEmail: email(),
})

export const reviewSchema = z.object({
  id: nonEmpty(),
  listingId: nonEmpty(),
  authorId: nonEmpty(),
  rating: z.number().check(z.int(), z.gte(1), z.lte(5)),
  text: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.nullable(z.string()),
})

export const followSchema = z.object({
  /** `<followerId>:<followeeId>`, so that "already following" is a lookup by id. */
  id: nonEmpty(),
  followerId: nonEmpty(),
  followeeId: nonEmpty(),
  createdAt: isoDateTime,
})

export const bookingStatusSchema = z.enum(['pending', 'accepted', 'declined', 'paid', 'refunded'])

export const bookingSchema = z.object({
  id: nonEmpty(),
  listingId: nonEmpty(),
  guestId: nonEmpty(),
  hostId: nonEmpty(),
  status: bookingStatusSchema,
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  /** In major units of `currency`. */
  amount: z.number().check(z.gte(0)),
  currency: z.string().check(z.length(3)),
  declineReason: z.nullable(z.string()),
})

export const signatureSchema = z.object({
  userId: nonEmpty(),
  fullName: nonEmpty(),
  signedAt: isoDateTime,
})

export const contractSchema = z.object({
  id: nonEmpty(),
  bookingId: nonEmpty(),
  partyIds: z.array(nonEmpty()).check(z.minLength(1)),
  signatures: z.array(signatureSchema),
  status: z.enum(['pending', 'signed']),
})

export const checkoutSessionSchema = z.object({
  id: nonEmpty(),
  bookingId: nonEmpty(),
  userId: nonEmpty(),
  amount: z.number().check(z.gte(0)),
  currency: z.string().check(z.length(3)),
  status: z.enum(['open', 'complete', 'expired']),
  createdAt: isoDateTime,
})

export const notificationSchema = z.object({
  id: nonEmpty(),
  userId: nonEmpty(),
  kind: nonEmpty(),
  title: nonEmpty(),
  body: z.string(),
  createdAt: isoDateTime,
  readAt: z.nullable(isoDateTime),
  archivedAt: z.nullable(isoDateTime),
})

export const outboxMessageSchema = z.object({
  id: nonEmpty(),
  to: email(),
  subject: nonEmpty(),
  kind: nonEmpty(),
  createdAt: isoDateTime,
})

export const refundSchema = z.object({
  id: nonEmpty(),
  bookingId: nonEmpty(),
  amount: z.number().check(z.gt(0)),
  createdAt: isoDateTime,
})

/**
 * Every collection, with the field that identifies a record. Lookups by that
 * field never scan (see `table.ts`).
 */
export const collectionDefinitions = {
  users: { schema: userSchema, key: 'publicId' },
  paymentAccounts: { schema: paymentAccountSchema, key: 'userId' },
  ambassadorApplications: { schema: ambassadorApplicationSchema, key: 'email' },
  venues: { schema: venueSchema, key: 'id' },
  reviews: { schema: reviewSchema, key: 'id' },
  follows: { schema: followSchema, key: 'id' },
  bookings: { schema: bookingSchema, key: 'id' },
  contracts: { schema: contractSchema, key: 'id' },
  checkoutSessions: { schema: checkoutSessionSchema, key: 'id' },
  notifications: { schema: notificationSchema, key: 'id' },
  outbox: { schema: outboxMessageSchema, key: 'id' },
  refunds: { schema: refundSchema, key: 'id' },
} as const

export type CollectionDefinitions = typeof collectionDefinitions
export type CollectionName = keyof CollectionDefinitions
export const collectionNames = Object.keys(collectionDefinitions) as CollectionName[]

export type User = z.infer<typeof userSchema>
export type PaymentAccount = z.infer<typeof paymentAccountSchema>
export type AmbassadorApplication = z.infer<typeof ambassadorApplicationSchema>
export type Venue = z.infer<typeof venueSchema>
export type Review = z.infer<typeof reviewSchema>
export type Follow = z.infer<typeof followSchema>
export type Booking = z.infer<typeof bookingSchema>
export type Contract = z.infer<typeof contractSchema>
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>
export type Notification = z.infer<typeof notificationSchema>
export type OutboxMessage = z.infer<typeof outboxMessageSchema>
export type Refund = z.infer<typeof refundSchema>

/** The record type of each collection. */
export type RecordOf<Name extends CollectionName> = z.infer<CollectionDefinitions[Name]['schema']>

/** Plain records of every collection: what a scenario produces and a snapshot holds. */
export type DataSet = { [Name in CollectionName]: RecordOf<Name>[] }
