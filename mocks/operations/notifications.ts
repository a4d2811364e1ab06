/**
 * @module
 * Notifications area: the owner archives a notification (row 12).
 */
import { defineOperation } from '../core/operation.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement } from './side-effects.ts'

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
  rules: {
    requires: [
      {
        kind: 'exists',
        name: 'notification',
        collection: 'notifications',
        key: ({ params }) => params.id!,
        // Someone else's notification is reported as unknown, so ids cannot be probed.
        owner: 'userId',
        message: ({ params }) => `Notification "${params.id}" not found`,
      },
      {
        kind: 'oneOf',
        record: 'notification',
        field: 'archivedAt',
        values: [null],
        message: (notification) => `Notification "${notification.id}" is already archived`,
      },
    ],
    effects: [
      {
        update: 'notification',
        set: { archivedAt: ({ now }) => now.toISOString() },
        draft: (draft, { now }) => {
          draft.readAt ??= now.toISOString()
        },
      },
    ],
    answer: acknowledgement,
  },
})
