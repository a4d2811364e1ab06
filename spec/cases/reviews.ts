/**
 * Reviews: the admin approves or rejects the pending review of a listing (rows 5 and 6).
 *
 * @module
 */
import {
  invalidBody,
  type OperationProfile,
  replay,
  sharedErrorCases,
  withDryRun,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

const approve: OperationProfile = {
  operationId: 'approveReview',
  success: 'approvePendingReview',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  lacksRole: 'host',
  writes: ['reviews', 'notifications'],
}

const reject: OperationProfile = {
  ...approve,
  operationId: 'rejectReview',
  success: 'rejectPendingReview',
}

const approved = replay(approve, 'approvePendingReview', {
  changes: [
    {
      collection: 'reviews',
      where: { id: 'rev_pending' },
      before: { count: 1, every: { status: 'pending' } },
      after: { count: 1, every: { status: 'approved', reason: null } },
    },
    {
      collection: 'notifications',
      where: { userId: 'usr_guest', kind: 'review.approved' },
      added: 1,
    },
  ],
})

const rejected = replay(reject, 'rejectPendingReview', {
  changes: [
    {
      collection: 'reviews',
      where: { id: 'rev_pending_2' },
      before: { count: 1, every: { status: 'pending' } },
      after: { count: 1, every: { status: 'rejected', reason: 'Mentions a private phone number' } },
    },
    {
      collection: 'notifications',
      where: { userId: 'usr_guest', kind: 'review.rejected' },
      added: 1,
    },
  ],
})

export const reviewCases: ConformanceCase[] = [
  approved,
  withDryRun(approve, approved),
  replay(approve, 'notAnAdmin'),
  replay(approve, 'unknownListing'),
  replay(approve, 'noPendingReview'),
  invalidBody(approve, { reason: 5 }, ['reason must be a string'], ['merged']),
  ...sharedErrorCases(approve),

  rejected,
  withDryRun(reject, rejected),
  replay(reject, 'notAnAdmin'),
  replay(reject, 'unknownListing'),
  replay(reject, 'noPendingReview'),
  invalidBody(
    reject,
    { reason: 'x'.repeat(1001) },
    ['reason must be shorter than or equal to 1000 characters'],
    ['merged'],
  ),
  ...sharedErrorCases(reject),
]
