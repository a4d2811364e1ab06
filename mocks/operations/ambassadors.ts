/**
 * @module
 * Ambassador area: the admin decides an application (row 3).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { email } from '../model/shapes.ts'
import { z } from '../model/zod.ts'
import { acknowledgement, sendEmail } from './side-effects.ts'

const application = rulesOn('ambassadorApplications', 'application')

export const updateAmbassadorApplicationStatus = defineBuiltInOperation({
  id: 'updateAmbassadorApplicationStatus',
  row: 3,
  method: 'POST',
  path: '/admin/ambassadors/applications/{email}/status',
  auth: 'admin',
  dryRun: true,
  successStatus: 201,
  params: z.object({ email: email() }),
  body: z.strictObject({
    status: z.enum(['approved', 'rejected']),
    note: z.optional(z.string().check(z.maxLength(1000))),
  }),
  rules: {
    requires: [
      application.exists({
        key: ({ params }) => params.email!.toLowerCase(),
        message: ({ params }) => `No ambassador application for "${params.email!.toLowerCase()}"`,
      }),
      application.differs(
        'status',
        'status',
        ({ status }) => `The application is already ${status}`,
      ),
    ],
    effects: [
      application.update({
        set: { status: ({ body }) => body.status as 'approved' | 'rejected' },
        draft: (draft, { body, now }) => {
          draft.decidedAt = now.toISOString()
          draft.note = (body.note as string | undefined) ?? null
        },
      }),
    ],
    after: ({ store, now, body, keys }) =>
      sendEmail(store, now, {
        to: keys.application!,
        subject:
          body.status === 'approved'
            ? 'Your ambassador application was approved'
            : 'Your ambassador application was not accepted',
        kind: `ambassador.application.${body.status}`,
      }),
    answer: acknowledgement,
  },
})
