/**
 * Ambassador: the admin decides an application (row 3).
 *
 * @module
 */
import {
  apiError,
  errorCase,
  invalidBody,
  NOT_NULL,
  type OperationProfile,
  replay,
  sharedErrorCases,
  successRequest,
  withDryRun,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

const decide: OperationProfile = {
  operationId: 'updateAmbassadorApplicationStatus',
  success: 'approveApplication',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  lacksRole: 'host',
  writes: ['ambassadorApplications', 'outbox'],
}

const approve = replay(decide, 'approveApplication', {
  changes: [
    {
      collection: 'ambassadorApplications',
      where: { email: 'applicant@sandbox.test' },
      before: { count: 1, every: { status: 'pending', decidedAt: null } },
      after: {
        count: 1,
        every: { status: 'approved', note: 'Welcome aboard', decidedAt: NOT_NULL },
      },
    },
    {
      collection: 'outbox',
      where: { to: 'applicant@sandbox.test', kind: 'ambassador.application.approved' },
      before: { count: 0 },
      after: { count: 1 },
    },
  ],
})

export const ambassadorCases: ConformanceCase[] = [
  approve,
  withDryRun(decide, approve),
  replay(decide, 'notAnAdmin'),
  replay(decide, 'noApplication'),
  replay(decide, 'alreadyApproved'),
  errorCase(decide, '400 when the path is not an e-mail address', {
    request: {
      ...successRequest(decide),
      url: '/admin/ambassadors/applications/not-an-email/status',
    },
    status: 400,
    body: apiError('BAD_REQUEST', 'Validation failed', ['email must be an email']),
    breaks: ['merged'],
  }),
  invalidBody(
    decide,
    { status: 'maybe' },
    ['status must be one of: approved, rejected'],
    ['merged'],
  ),
  ...sharedErrorCases(decide),
]
