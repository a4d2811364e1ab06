/**
 * Follow: following a user (row 7).
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

const follow: OperationProfile = {
  operationId: 'followUser',
  success: 'followGuest',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  writes: ['follows', 'notifications'],
}

const followed = replay(follow, 'followGuest', {
  changes: [
    {
      collection: 'follows',
      where: { followerId: 'usr_host', followeeId: 'usr_guest' },
      before: { count: 0 },
      after: { count: 1, every: { id: 'usr_host:usr_guest' } },
    },
    {
      collection: 'notifications',
      where: {
        userId: 'usr_guest',
        kind: 'user.followed',
        body: 'Hugo Host started following you.',
      },
      added: 1,
    },
  ],
})

export const followCases: ConformanceCase[] = [
  followed,
  withDryRun(follow, followed),
  replay(follow, 'followSelf'),
  replay(follow, 'unknownUser'),
  replay(follow, 'alreadyFollowing'),
  invalidBody(follow, { notify: true }, ['property notify should not exist'], ['merged']),
  ...sharedErrorCases(follow),
]
