/**
 * @module
 * Ambassador area: the admin decides an application (row 3).
 */
import { conflict, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { email } from '../model/shapes.ts'
import { z } from '../model/zod.ts'
import { acknowledgement, sendEmail } from './side-effects.ts'

export const updateAmbassadorApplicationStatus = defineOperation({
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
  async run({ params, body, store, now }) {
    const email = params.email.toLowerCase()
    const application = store.ambassadorApplications.get(email)
    if (!application) throw notFound(`No ambassador application for "${email}"`)
    if (application.status === body.status) {
      throw conflict(`The application is already ${body.status}`)
    }
    return {
      body: acknowledgement,
      async apply() {
        await store.ambassadorApplications.update(email, (draft) => {
          draft.status = body.status
          draft.decidedAt = now.toISOString()
          draft.note = body.note ?? null
        })
        await sendEmail(store, now, {
          to: email,
          subject:
            body.status === 'approved'
              ? 'Your ambassador application was approved'
              : 'Your ambassador application was not accepted',
          kind: `ambassador.application.${body.status}`,
        })
      },
    }
  },
})
