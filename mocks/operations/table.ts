/**
 * @module
 * The operation table: the 13 operations of the reference, in its order, each with the
 * recorded answers of `spec/examples/` and the statuses the merged document lists for it.
 */
import { recordedAnswers } from '../../spec/examples/answers.generated.ts'
import { documentedStatuses } from '../../spec/generated/documented-statuses.ts'
import type { Operation } from '../core/index.ts'
import { updateAmbassadorApplicationStatus } from './ambassadors.ts'
import { completeIdpSignIn, refreshToken } from './auth.ts'
import { declineBooking } from './bookings.ts'
import { createCheckoutSession } from './checkout.ts'
import { signContract } from './contracts.ts'
import { followUser } from './follows.ts'
import { archiveNotification } from './notifications.ts'
import { getAccountStatus, testRefundWebhook } from './payprov.ts'
import { approveReview, rejectReview } from './reviews.ts'
import { sendVenueClaimEmail } from './venues.ts'

const declared: readonly Operation[] = [
  refreshToken,
  getAccountStatus,
  updateAmbassadorApplicationStatus,
  sendVenueClaimEmail,
  approveReview,
  rejectReview,
  followUser,
  declineBooking,
  signContract,
  createCheckoutSession,
  completeIdpSignIn,
  archiveNotification,
  testRefundWebhook,
]

export const operations: readonly Operation[] = declared.map((operation) => ({
  ...operation,
  examples: recordedAnswers[operation.id] ?? {},
  documentedStatuses: documentedStatuses[operation.id],
}))
