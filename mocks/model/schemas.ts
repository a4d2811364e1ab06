/**
 * @module
 * The zod schema of every collection (the collections of the README's data section). Each schema gives the
 * record's TypeScript type and the @msw/data collection that stores it.
 */
import { z } from 'zod'
import { email } from './shapes.ts'

const isoDateTime = z.iso.datetime()

export const roleSchema = z.enum(['admin', 'host', 'guest', 'ambassador'])

export const userSchema = z.object({
  publicId: z.string().min(1),
  email: email(),
  displayName: z.string().min(1),
  roles: z.array(roleSchema),
  createdAt: isoDateTime,
  /** Set on personas only: the refresh token `POST /auth/refresh` accepts for this user. */
  refreshToken: z.string().nullable(),
  /** Set on personas only: the code `POST /auth/idp/complete` accepts for this user. */
  idpCode: z.string().nullable(),
  /** When the refresh token was revoked; a revoked token gets 401 from `POST /auth/refresh`. */
  refreshTokenRevokedAt: isoDateTime.nullable(),
})

export const requirementsSchema = z.object({
  past_due: z.array(z.string()),
  currently_due: z.array(z.string()),
  pending_verification: z.array(z.string()),
  eventually_due: z.array(z.string()),
})

export const paymentAccountSchema = z.object({
  userId: z.string().min(1),
  payouts_enabled: z.boolean(),
  charges_enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  requirements: requirementsSchema,
})

export const ambassadorApplicationSchema = z.object({
  email: email(),
  fullName: z.string().min(1),
  status: z.enum(['pending', 'approved', 'rejected']),
  submittedAt: isoDateTime,
  decidedAt: isoDateTime.nullable(),
  note: z.string().nullable(),
})

export const venueSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  city: z.string().min(1),
  ownerId: z.string().nullable(),
  claimStatus: z.enum(['unclaimed', 'claim_requested', 'claimed']),
  contactEmail: email(),
})

export const reviewSchema = z.object({
  id: z.string().min(1),
  listingId: z.string().min(1),
  authorId: z.string().min(1),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.string().nullable(),
})

export const followSchema = z.object({
  /** `<followerId>:<followeeId>`, so that "already following" is a lookup by id. */
  id: z.string().min(1),
  followerId: z.string().min(1),
  followeeId: z.string().min(1),
  createdAt: isoDateTime,
})

export const bookingStatusSchema = z.enum(['pending', 'accepted', 'declined', 'paid', 'refunded'])

export const bookingSchema = z.object({
  id: z.string().min(1),
  listingId: z.string().min(1),
  guestId: z.string().min(1),
  hostId: z.string().min(1),
  status: bookingStatusSchema,
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  /** In major units of `currency`. */
  amount: z.number().nonnegative(),
  currency: z.string().length(3),
  declineReason: z.string().nullable(),
})

export const signatureSchema = z.object({
  userId: z.string().min(1),
  fullName: z.string().min(1),
  signedAt: isoDateTime,
})

export const contractSchema = z.object({
  id: z.string().min(1),
  bookingId: z.string().min(1),
  partyIds: z.array(z.string().min(1)).min(1),
  signatures: z.array(signatureSchema),
  status: z.enum(['pending', 'signed']),
})

export const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  bookingId: z.string().min(1),
  userId: z.string().min(1),
  amount: z.number().nonnegative(),
  currency: z.string().length(3),
  status: z.enum(['open', 'complete', 'expired']),
  createdAt: isoDateTime,
})

export const notificationSchema = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  kind: z.string().min(1),
  title: z.string().min(1),
  body: z.string(),
  createdAt: isoDateTime,
  readAt: isoDateTime.nullable(),
  archivedAt: isoDateTime.nullable(),
})

export const outboxMessageSchema = z.object({
  id: z.string().min(1),
  to: email(),
  subject: z.string().min(1),
  kind: z.string().min(1),
  createdAt: isoDateTime,
})

export const refundSchema = z.object({
  id: z.string().min(1),
  bookingId: z.string().min(1),
  amount: z.number().positive(),
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
