import { describe, expect, it } from 'vitest'
import { RecordingsFormatError } from '../../../recordings/replay/recordings.ts'
import { replayHar } from '../../../test-support/recordings/test-replay.ts'
import {
  runStagingSession,
  STAGING_BOOKING,
  STAGING_HOST,
  stagingScenario,
  stagingSteps,
} from '../../../test-support/recordings/test-staging.ts'
import { createSandbox } from '../../sandbox.ts'
import { learnScenario, learnScenarioFromText } from './learn-scenario.ts'

async function recordStaging() {
  const staging = createSandbox({ scenarios: [stagingScenario], scenario: 'staging' })
  const session = 'recorded'
  const statuses = await runStagingSession((request) =>
    staging.handle({ ...request, headers: { ...request.headers, 'x-sandbox-session': session } }),
  )
  expect(statuses).toEqual(stagingSteps.map((step) => step.status))
  return staging.journal.toHar({ session, baseUrl: 'https://staging.example.com' })
}

describe('learning a scenario from a recording', () => {
  it('reproduces every recorded status when the requests are sent again, in order', async () => {
    const har = await recordStaging()
    const learned = await learnScenario(har, { name: 'from-staging' })
    expect(learned.notCovered).toEqual([])
    expect(learned.covered).toBe(har.log.entries.length)

    const sandbox = createSandbox({ scenarios: [learned.scenario], scenario: 'from-staging' })
    const replayed = await replayHar(har, learned.scenario, new Set(), (request) =>
      sandbox.handle({
        ...request,
        headers: { ...request.headers, 'x-sandbox-session': 'replay' },
      }),
    )
    expect(replayed.map(({ label, replayed }) => `${label} ${replayed}`)).toEqual(
      replayed.map(({ label, recorded }) => `${label} ${recorded}`),
    )
    // Stateful: the booking declined in the recording cannot be declined again.
    const again = await replayHar(
      {
        log: {
          ...har.log,
          entries: har.log.entries.filter((entry) =>
            entry.request.url.endsWith(`${STAGING_BOOKING}/decline`),
          ),
        },
      },
      learned.scenario,
      new Set(),
      (request) =>
        sandbox.handle({
          ...request,
          headers: { ...request.headers, 'x-sandbox-session': 'replay' },
        }),
    )
    expect(again.map((one) => one.replayed)).toEqual([409])
  })

  it('writes what the answers showed and what the writes imply', async () => {
    const learned = await learnScenario(await recordStaging(), { name: 'from-staging' })
    const { add = {}, change = {} } = learned.scenario
    expect(learned.scenario.extends).toBe('empty')
    // The user who signed in with the idp code is the one the refresh token's answer named.
    expect(add.users?.map((user) => user.publicId).sort()).toEqual(
      [STAGING_HOST, 'usr_ad0m55', 'usr_g7c0d2'].sort(),
    )
    expect(add.users?.find((user) => user.publicId === STAGING_HOST)).toMatchObject({
      idpCode: `idp_${STAGING_HOST}`,
      refreshToken: 'rt_sofia.c3RhZ2luZy1ob3N0',
    })
    expect(add.paymentAccounts).toContainEqual({
      userId: STAGING_HOST,
      payouts_enabled: false,
      charges_enabled: true,
      disabled_reason: 'requirements.past_due',
      requirements: {
        past_due: ['external_account', 'individual.verification.document'],
        currently_due: ['external_account'],
        pending_verification: [],
        eventually_due: ['company.tax_id'],
      },
    })
    const bookings = new Map(add.bookings?.map((booking) => [booking.id, booking]))
    expect(bookings.get(STAGING_BOOKING)).toMatchObject({ status: 'pending', hostId: STAGING_HOST })
    expect(bookings.get('bkg_8e21aa')).toMatchObject({
      hostId: STAGING_HOST,
      guestId: 'usr_g7c0d2',
      status: 'accepted',
    })
    expect(bookings.get('bkg_0th3r')?.hostId).not.toBe(STAGING_HOST)
    expect(bookings.get('bkg_55p41d')).toMatchObject({ status: 'paid' })
    expect(bookings.has('bkg_n0pe')).toBe(false)
    expect(add.notifications).toContainEqual(
      expect.objectContaining({ id: 'ntf_91ab77', userId: STAGING_HOST, archivedAt: null }),
    )
    expect(add.contracts?.[0]).toMatchObject({ id: 'ctr_3c5e', signatures: [] })
    expect(add.contracts?.[0]?.partyIds).toContain(STAGING_HOST)
    expect(add.follows ?? []).toEqual([])
    expect(add.venues).toContainEqual(
      expect.objectContaining({ id: 'ven_c4n4l', claimStatus: 'claimed' }),
    )
    expect(add.venues).toContainEqual(
      expect.objectContaining({ id: 'ven_u77', claimStatus: 'unclaimed' }),
    )
    expect(add.reviews?.filter((review) => review.listingId === 'ven_c4n4l')).toHaveLength(1)
    expect(add.ambassadorApplications).toContainEqual(
      expect.objectContaining({ email: 'sofia.applicant@staging.example.com', status: 'pending' }),
    )
    expect(add.users?.find((user) => user.publicId === 'usr_ad0m55')?.roles).toContain('admin')
    expect(change.paymentAccounts ?? []).toEqual([])
  })

  it('gives the same file for the same recording', async () => {
    const har = await recordStaging()
    const first = await learnScenario(har)
    const second = await learnScenario(structuredClone(har))
    expect(JSON.stringify(second.scenario)).toBe(JSON.stringify(first.scenario))
  })
})

describe('learning where the recording stopped', () => {
  it('plays each exchange at the time it was recorded, over hours of tokens', async () => {
    const har = await recordStaging()
    // Ten minutes apart: the session spans more than one access token's lifetime.
    const start = Date.parse('2026-06-01T09:00:00.000Z')
    har.log.entries.forEach((entry, index) => {
      entry.startedDateTime = new Date(start + index * 600_000).toISOString()
    })
    const archive = har.log.entries.find(
      (entry) =>
        entry.request.method === 'POST' && entry.request.url.endsWith('/ntf_91ab77/archive'),
    )!
    const learned = await learnScenario(har, { name: 'timed', at: 'end' })
    expect(learned.notCovered).toEqual([])
    const sandbox = createSandbox({ scenarios: [learned.scenario], scenario: 'timed' })
    const store = await sandbox.store()
    expect(store.notifications.get('ntf_91ab77')?.archivedAt).toBe(archive.startedDateTime)
    expect(Date.parse(archive.startedDateTime) - start).toBeGreaterThan(900_000)
  })

  it('plays the covered exchanges forward: the declined booking is declined, the archived notification archived', async () => {
    const learned = await learnScenario(await recordStaging(), { name: 'after-staging', at: 'end' })
    expect(learned.notCovered).toEqual([])
    const sandbox = createSandbox({ scenarios: [learned.scenario], scenario: 'after-staging' })
    const store = await sandbox.store()
    expect(store.bookings.get(STAGING_BOOKING)).toMatchObject({
      status: 'declined',
      declineReason: 'Closed for works',
    })
    expect(store.notifications.get('ntf_91ab77')?.archivedAt).not.toBeNull()
    expect(store.follows.has(`${STAGING_HOST}:usr_g7c0d2`)).toBe(true)
    expect(
      store.checkoutSessions.filter((session) => session.bookingId === 'bkg_8e21aa'),
    ).toHaveLength(1)
    expect(store.refunds.filter((refund) => refund.bookingId === 'bkg_55p41d')).toHaveLength(1)
  })
})

describe('learning from the text of a file, a part at a time', () => {
  /** The staging session ten times over: more text than one part, and contradictions to name. */
  async function largeHar() {
    const har = await recordStaging()
    const entries = Array.from({ length: 10 }, () => har.log.entries).flat()
    return { log: { ...har.log, entries } }
  }

  it('learns what the parsed document gives, at the start and where it stopped', async () => {
    const har = await largeHar()
    const text = JSON.stringify(har)
    expect(text.length).toBeGreaterThan(250_000)
    for (const at of ['start', 'end'] as const) {
      const whole = await learnScenario(JSON.parse(text), { name: 'big', at })
      const parts = await learnScenarioFromText(text, { name: 'big', at })
      expect(parts.scenario).toEqual(whole.scenario)
      expect(parts.notCovered).toEqual(whole.notCovered)
      expect(whole.notCovered.length).toBeGreaterThan(0)
      expect([parts.covered, parts.exchanges, parts.entries]).toEqual([
        whole.covered,
        whole.exchanges,
        whole.entries,
      ])
      expect(parts.origins).toEqual(whole.origins)
      const last = har.log.entries.length - 1
      for (const index of [0, 1, last, last + 1])
        expect(parts.label(index)).toBe(whole.label(index))
    }
  })

  it('fails on an entry that is no HAR entry after parts were learned, as the parsed document does', async () => {
    const har = await largeHar()
    const broken = har.log.entries.length - 3
    const entries = har.log.entries.map((entry, index) =>
      index === broken ? { ...entry, response: { ...entry.response, status: '2OO' } } : entry,
    )
    const text = JSON.stringify({ log: { ...har.log, entries } })
    const whole = await learnScenario(JSON.parse(text)).catch((error: unknown) => error)
    const parts = await learnScenarioFromText(text).catch((error: unknown) => error)
    expect(whole).toBeInstanceOf(RecordingsFormatError)
    expect(parts).toBeInstanceOf(RecordingsFormatError)
    expect((parts as Error).message).toBe((whole as Error).message)
    expect((parts as Error).message).toContain(`log.entries.${broken}.response.status`)
  })
})
