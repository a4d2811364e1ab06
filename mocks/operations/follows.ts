/**
 * @module
 * Follow area: following a user (row 7).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

const followee = rulesOn('users', 'followee')
const follow = rulesOn('follows', 'follow')

const followId = ({ params, caller }: { params: Record<string, string>; caller: string }) =>
  `${caller}:${params.targetPublicId}`

export const followUser = defineBuiltInOperation({
  id: 'followUser',
  row: 7,
  method: 'POST',
  path: '/users/{targetPublicId}/follow',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ targetPublicId: nonEmpty() }),
  body: z.strictObject({}),
  rules: {
    requires: [
      {
        kind: 'notCaller',
        value: ({ params }) => params.targetPublicId!,
        message: 'targetPublicId must not be the caller',
      },
      followee.exists({
        key: ({ params }) => params.targetPublicId!,
        message: ({ params }) => `User "${params.targetPublicId}" not found`,
      }),
      follow.absent({
        key: followId,
        message: ({ params }) => `Already following "${params.targetPublicId}"`,
      }),
    ],
    effects: [
      follow.insert((context) => ({
        id: followId(context),
        followerId: context.caller,
        followeeId: followee.of(context).publicId,
        createdAt: context.now.toISOString(),
      })),
    ],
    after: ({ store, now, caller, records }) =>
      notify(store, now, {
        userId: followee.of({ records }).publicId,
        kind: 'user.followed',
        title: 'New follower',
        body: `${store.users.get(caller)?.displayName} started following you.`,
      }),
    answer: acknowledgement,
  },
})
