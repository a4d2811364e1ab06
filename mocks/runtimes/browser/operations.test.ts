import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { anchors } from '../../../fixtures/anchors.ts'
import { getPersona } from '../../../fixtures/personas.ts'
import { builtInSandbox } from '../../built-in-sandbox.ts'
import { defineOperation } from '../../core/index.ts'
import { z } from '../../model/zod.ts'
import { createWorkerHandlers } from './worker-handlers.ts'

/** A write of your own on a method none of the 13 has. */
const markBooking = defineOperation({
  id: 'markBooking',
  method: 'PUT',
  path: '/bookings/{bookingId}/mark',
  summary: 'Marks a booking declined',
  auth: 'signedIn',
  responses: { 200: { schema: z.object({ status: z.string() }) } },
  answer: async ({ collections, params }) =>
    collections.bookings.update(params.bookingId, (draft) => {
      draft.status = 'declined'
    }),
})

describe("the worker's handlers", () => {
  it('answer an operation of your own, its write in the session', async () => {
    const sandbox = builtInSandbox({ operations: [markBooking] })
    const handlers = createWorkerHandlers(sandbox, { baseUrl: 'https://api.example.com' })
    const send = async (path: string, init: RequestInit) =>
      (await getResponse(handlers, new Request(`https://api.example.com${path}`, init)))!
    const refresh = await send('/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: getPersona('host').refreshToken }),
    })
    const { accessToken } = (await refresh.json()) as { accessToken: string }
    const answer = await send(`/bookings/${anchors.bookings.pending}/mark`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toMatchObject({ status: 'declined' })
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
  })
})
