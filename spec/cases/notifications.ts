/**
 * Notifications: the owner archives a notification (row 12).
 *
 * @module
 */
import {
  invalidBody,
  NOT_NULL,
  type OperationProfile,
  replay,
  sharedErrorCases,
  withDryRun,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

const archive: OperationProfile = {
  operationId: 'archiveNotification',
  success: 'archiveNotification',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  writes: ['notifications'],
}

const archived = replay(archive, 'archiveNotification', {
  changes: [
    {
      collection: 'notifications',
      where: { id: 'ntf_host_unarchived' },
      before: { count: 1, every: { archivedAt: null, readAt: null } },
      after: { count: 1, every: { archivedAt: NOT_NULL, readAt: NOT_NULL } },
    },
  ],
})

export const notificationCases: ConformanceCase[] = [
  archived,
  withDryRun(archive, archived),
  replay(archive, 'someoneElsesNotification'),
  replay(archive, 'alreadyArchived'),
  invalidBody(archive, { force: true }, ['property force should not exist'], ['merged']),
  ...sharedErrorCases(archive),
]
