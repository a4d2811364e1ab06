import { describe, expect, it } from 'vitest'
import { createHar, createHarEntry } from '../har.ts'
import { learnScenario } from './learn-scenario.ts'

/** One recorded exchange: a JSON request by `as` (a redacted token keeping its subject). */
function exchange(
  method: string,
  path: string,
  status: number,
  { as, body, answer = '{"success":true}' }: { as?: string; body?: unknown; answer?: string } = {},
) {
  return createHarEntry({
    method,
    url: `https://staging.example.com${path}`,
    requestHeaders: {
      'content-type': 'application/json',
      ...(as ? { authorization: `Bearer [REDACTED sub=${as}]` } : {}),
    },
    requestBody: body === undefined ? undefined : JSON.stringify(body),
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: answer,
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 3,
  })
}

const learn = (entries: ReturnType<typeof exchange>[], options = {}) =>
  learnScenario(createHar(entries), options)

describe('what the learner infers, and what it refuses to guess', () => {
  it('names an exchange that contradicts an earlier one, and keeps what the others showed', async () => {
    const learned = await learn([
      exchange('POST', '/bookings/bkg_a1/decline', 201, { as: 'usr_h1', body: {} }),
      exchange('POST', '/bookings/bkg_a1/decline', 201, { as: 'usr_h1', body: {} }),
    ])
    expect(learned.covered).toBe(1)
    expect(learned.notCovered).toEqual([
      {
        index: 1,
        label: '#2 POST /bookings/bkg_a1/decline 201',
        reason: 'bookings bkg_a1: status would have to be pending, but was declined by #1',
      },
    ])
    expect(learned.scenario.add?.bookings).toEqual([
      expect.objectContaining({ id: 'bkg_a1', status: 'pending', hostId: 'usr_h1' }),
    ])
  })

  it('answers that need no state are covered when the sandbox gives the same, named otherwise', async () => {
    const learned = await learn([
      exchange('POST', '/bookings/bkg_a1/decline', 401, { body: {} }),
      exchange('POST', '/bookings/bkg_a1/decline', 400, { as: 'usr_h1', body: { because: 1 } }),
      exchange('POST', '/bookings/bkg_a1/decline', 201, { body: {} }),
      exchange('GET', '/assets/app.js', 200, { answer: '' }),
    ])
    expect(learned.covered).toBe(2)
    expect(learned.notCovered.map(({ index, reason }) => [index, reason])).toEqual([
      [2, 'no Authorization header: the sandbox answers 401, the recording 201'],
    ])
    expect(learned.others).toEqual(['#4 GET /assets/app.js'])
    expect(learned.exchanges).toBe(3)
    expect(learned.entries).toBe(4)
  })

  it('a persona named by the token is changed, not added; a 404 removes a record of the scenario extended', async () => {
    const learned = await learn(
      [
        exchange('GET', '/payprov/account-status', 200, {
          as: 'usr_host',
          answer: JSON.stringify({
            payouts_enabled: false,
            charges_enabled: false,
            disabled_reason: 'rejected.fraud',
            requirements: {
              past_due: [],
              currently_due: [],
              pending_verification: [],
              eventually_due: [],
            },
          }),
        }),
        exchange('POST', '/notifications/ntf_host_unarchived/archive?dryRun=true', 404, {
          as: 'usr_guest',
          body: {},
        }),
        exchange('POST', '/users/usr_nobody/follow?dryRun=true', 404, {
          as: 'usr_guest',
          body: {},
        }),
        exchange('GET', '/payprov/account-status', 404, { as: 'usr_host_pending' }),
        exchange('POST', '/admin/reviews/ven_anchor/approve?dryRun=true', 403, {
          as: 'usr_admin',
          body: {},
        }),
      ],
      { extends: 'default' },
    )
    expect(learned.notCovered).toEqual([])
    expect(learned.scenario.extends).toBe('default')
    expect(learned.scenario.add?.users ?? []).toEqual([])
    // Every field the answer showed (the base host had an item eventually due).
    expect(learned.scenario.change?.paymentAccounts).toEqual([
      {
        userId: 'usr_host',
        payouts_enabled: false,
        charges_enabled: false,
        disabled_reason: 'rejected.fraud',
        requirements: {
          past_due: [],
          currently_due: [],
          pending_verification: [],
          eventually_due: [],
        },
      },
    ])
    expect(learned.scenario.remove).toEqual({ paymentAccounts: ['usr_host_pending'] })
    // Someone else's notification is a 404 too: it stays, its owner is not the caller.
    expect(learned.scenario.remove?.notifications ?? []).toEqual([])
    // The admin refused as a non-admin: the recording shows the role is gone.
    expect(learned.scenario.change?.users).toEqual([{ publicId: 'usr_admin', roles: [] }])
  })

  it('a 409 on decline gives a booking that is not pending, hosted by the caller', async () => {
    const learned = await learn([
      exchange('POST', '/bookings/bkg_b2/decline?dryRun=true', 409, { as: 'usr_h2', body: {} }),
      exchange('POST', '/checkout/create-session', 201, {
        as: 'usr_g2',
        body: { bookingId: 'bkg_b2' },
      }),
    ])
    expect(learned.notCovered).toEqual([])
    expect(learned.scenario.add?.bookings).toEqual([
      expect.objectContaining({
        id: 'bkg_b2',
        status: 'accepted',
        hostId: 'usr_h2',
        guestId: 'usr_g2',
      }),
    ])
  })

  it('a record shown already written was written by the operation itself, before the recording', async () => {
    const learned = await learn([
      exchange('POST', '/notifications/ntf_c3/archive?dryRun=true', 409, {
        as: 'usr_h3',
        body: {},
      }),
      exchange('POST', '/contracts/ctr_c3/sign?dryRun=true', 409, {
        as: 'usr_h3',
        body: { fullName: 'Hana Three' },
      }),
    ])
    expect(learned.notCovered).toEqual([])
    const start = '2026-06-01T10:00:00.000Z'
    // Archiving sets when it was archived, and read if it was not.
    expect(learned.scenario.add?.notifications).toEqual([
      expect.objectContaining({ id: 'ntf_c3', userId: 'usr_h3', archivedAt: start, readAt: start }),
    ])
    // Signed with no name sent: the signer's display name; the other party has not signed.
    const signer = learned.scenario.add?.users?.find((user) => user.publicId === 'usr_h3')
    const [contract] = learned.scenario.add?.contracts ?? []
    expect(contract?.partyIds).toHaveLength(2)
    expect(contract).toMatchObject({
      id: 'ctr_c3',
      signatures: [{ userId: 'usr_h3', fullName: signer?.displayName, signedAt: start }],
      status: 'pending',
    })
    expect(contract?.partyIds[0]).toBe('usr_h3')
    // Its booking is between its parties, as the contract factory makes it.
    const booking = learned.scenario.add?.bookings?.find(({ id }) => id === contract?.bookingId)
    expect([booking?.hostId, booking?.guestId]).toEqual(contract?.partyIds)
  })

  it('a refresh token cookie is malformed by the pattern the sandbox checks it with', async () => {
    const refresh = (cookie: string, status: number) =>
      createHarEntry({
        method: 'POST',
        url: 'https://staging.example.com/auth/refresh?dryRun=true',
        requestHeaders: { 'content-type': 'application/json', cookie: `refresh_token=${cookie}` },
        requestBody: '{}',
        status,
        responseHeaders: { 'content-type': 'application/json' },
        responseBody: '{}',
        startedDateTime: '2026-06-01T10:00:00.000Z',
        time: 3,
      })
    // Two segments, the second empty: the sandbox answers 400, as the backend did.
    const learned = await learnScenario(createHar([refresh('rt_x.', 400), refresh('a.b.c', 400)]))
    expect(learned.notCovered).toEqual([])
    expect(learned.covered).toBe(2)
    expect(learned.signIns).toEqual([])
  })
})
