/**
 * @module
 * Notifications area: the owner archives a notification (row 12).
 */
import { conflict, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, signedIn } from './side-effects.ts'

export const archiveNotification = defineOperation({
  id: 'archiveNotification',
  row: 12,
  method: 'POST',
  path: '/notifications/{id}/archive',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ id: nonEmpty() }),
  body: z.strictObject({}),
  async run({ params, caller, store, now }) {
    const notification = store.notifications.get(params.id)
    // Someone else's notification is reported as unknown, so ids cannot be probed.
    if (!notification || notification.userId !== signedIn(caller).publicId) {
      throw notFound(`Notification "${params.id}" not found`)
    }
    if (notification.archivedAt !== null) {
      throw conflict(`Notification "${notification.id}" is already archived`)
    }
    return {
      body: acknowledgement,
      async apply() {
        await store.notifications.update(notification.id, (draft) => {
          draft.archivedAt = now.toISOString()
          draft.readAt ??= now.toISOString()
        })
      },
    }
  },
})
