/**
 * @module
 * Follow area: following a user (row 7).
 */
import { badRequest, conflict, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify, signedIn } from './side-effects.ts'

export const followUser = defineOperation({
  id: 'followUser',
  row: 7,
  method: 'POST',
  path: '/users/{targetPublicId}/follow',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ targetPublicId: nonEmpty() }),
  body: z.strictObject({}),
  async run({ params, caller, store, now }) {
    const follower = signedIn(caller)
    if (params.targetPublicId === follower.publicId) {
      throw badRequest('Validation failed', ['targetPublicId must not be the caller'])
    }
    const followee = store.users.get(params.targetPublicId)
    if (!followee) throw notFound(`User "${params.targetPublicId}" not found`)
    const id = `${follower.publicId}:${followee.publicId}`
    if (store.follows.has(id)) throw conflict(`Already following "${followee.publicId}"`)
    return {
      body: acknowledgement,
      async apply() {
        await store.follows.insert({
          id,
          followerId: follower.publicId,
          followeeId: followee.publicId,
          createdAt: now.toISOString(),
        })
        await notify(store, now, {
          userId: followee.publicId,
          kind: 'user.followed',
          title: 'New follower',
          body: `${follower.displayName} started following you.`,
        })
      },
    }
  },
})
