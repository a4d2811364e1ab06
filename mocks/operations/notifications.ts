/**
 * @module
 * Notifications area: the owner archives a notification (row 12).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement } from './side-effects.ts'

const notification = rulesOn('notifications', 'notification')

export const archiveNotification = defineBuiltInOperation({
  id: 'archiveNotification',
  row: 12,
  method: 'POST',
  path: '/notifications/{id}/archive',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ id: nonEmpty() }),
  body: z.strictObject({}),
  rules: {
    requires: [
      notification.exists({
        key: ({ params }) => params.id!,
        // Someone else's notification is reported as unknown, so ids cannot be probed.
        owner: 'userId',
        message: ({ params }) => `Notification "${params.id}" not found`,
      }),
      notification.oneOf(
        'archivedAt',
        [null],
        ({ id }) => `Notification "${id}" is already archived`,
      ),
    ],
    effects: [
      notification.update({
        set: { archivedAt: ({ now }) => now.toISOString() },
        draft: (draft, { now }) => {
          draft.readAt ??= now.toISOString()
        },
      }),
    ],
    answer: acknowledgement,
  },
})
