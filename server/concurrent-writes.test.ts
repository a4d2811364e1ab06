import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import type { JournalEntry } from '../mocks/core/index.ts'
import { collectionNames } from '../mocks/model/schemas.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { SESSION_HEADER } from '../mocks/sandbox-client/sandbox-client.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

const CLIENTS = 50
const WRITES = 200
const SHARED = 'shared'
const fixedNow = () => new Date('2026-06-01T12:00:00.000Z')
const options = { now: fixedNow, journalLimit: CLIENTS * WRITES + 1000 }

interface Write {
  tag: string
  session: string
  url: string
  persona: string
  body: unknown
}

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const publicIds = personas.map((persona) => persona.publicId)
const kinds: ((pick: <T>(list: readonly T[]) => T) => Omit<Write, 'tag' | 'session'>)[] = [
  (pick) => ({
    url: `/venues/${pick(Object.values(anchors.venues))}/send-claim-email`,
    persona: 'guest',
    body: pick([{}, { email: 'owner@example.test' }]),
  }),
  (pick) => ({
    url: `/users/${pick(publicIds)}/follow`,
    persona: pick(['host', 'guest', 'admin', 'applicant']),
    body: {},
  }),
  (pick) => ({
    url: '/checkout/create-session',
    persona: 'guest',
    body: { bookingId: pick([anchors.bookings.accepted, anchors.bookings.pending]) },
  }),
  (pick) => ({
    url: `/admin/ambassadors/applications/${encodeURIComponent(anchors.applications.pending)}/status`,
    persona: 'admin',
    body: { status: pick(['approved', 'rejected']) },
  }),
  (pick) => ({
    url: `/bookings/${pick([anchors.bookings.pending, anchors.bookings.pending2])}/decline`,
    persona: 'host',
    body: { reason: 'Fully booked' },
  }),
  (pick) => ({
    url: `/notifications/${pick(Object.values(anchors.notifications))}/archive`,
    persona: pick(['host', 'guest']),
    body: {},
  }),
  (pick) => ({
    url: `/contracts/${pick(Object.values(anchors.contracts))}/sign`,
    persona: pick(['host', 'guest']),
    body: { fullName: 'Signing Party' },
  }),
  (pick) => ({
    url: '/payprov/webhook/test-refund',
    persona: 'guest',
    body: { bookingId: pick([anchors.bookings.paid, anchors.bookings.refunded]), amount: 1 },
  }),
]

function writesOf(client: number): Write[] {
  const next = random(20260601 + client)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
  return Array.from({ length: WRITES }, (_, index) => {
    const write = pick(kinds)(pick)
    const dryRun = next() < 0.1 ? 'dryRun=true&' : ''
    const tag = `${client}-${index}`
    const url = `${write.url}?${dryRun}tag=${tag}`
    return { ...write, url, tag, session: next() < 0.5 ? `client-${client}` : SHARED }
  })
}

let server: TestServer
const tokens = new Map<string, string>()

beforeAll(async () => {
  server = await startTestServer(options)
  for (const persona of personas) tokens.set(persona.key, await server.tokenFor(persona.key))
})
afterAll(() => server.close())

function send(write: Write) {
  return fetch(`${server.url}${write.url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [SESSION_HEADER]: write.session,
      authorization: `Bearer ${tokens.get(write.persona)}`,
    },
    body: JSON.stringify(write.body),
  }).then(async (response) => ({ status: response.status, text: await response.text() }))
}

describe(`${CLIENTS} clients writing at once, ${WRITES} writes each`, () => {
  it('leave the state the journal says, one write at a time, with every 201 in it', async () => {
    const all = new Map<string, Write>()
    const seen = new Map<string, number>()
    const started = performance.now()
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (const write of writesOf(client)) {
          all.set(write.tag, write)
          const { status } = await send(write)
          seen.set(write.tag, status)
        }
      }),
    )
    console.log(
      `concurrent writes: ${seen.size} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    expect(seen.size).toBe(CLIENTS * WRITES)
    expect([...seen.values()].every((status) => status < 500)).toBe(true)

    // The journal, oldest first, holds every write exactly once with the status the client saw.
    const journal = (await server.request<JournalEntry[]>('/__sandbox/requests')).body.filter(
      (entry) => entry.query.tag !== undefined,
    )
    expect(journal).toHaveLength(CLIENTS * WRITES)
    for (const entry of journal)
      expect(entry.status, entry.query.tag).toBe(seen.get(entry.query.tag!))
    const created = [...seen].filter(([, status]) => status === 201)
    expect(created.length).toBeGreaterThan(CLIENTS * WRITES * 0.2)

    // Replaying the journal's writes one by one on a fresh sandbox gives the same answers...
    const replay = createSandbox(options)
    for (const entry of journal) {
      const write = all.get(entry.query.tag!)!
      const answer = await replay.handle({
        method: 'POST',
        url: write.url,
        headers: {
          'content-type': 'application/json',
          [SESSION_HEADER]: write.session,
          authorization: `Bearer ${tokens.get(write.persona)}`,
        },
        body: JSON.stringify(write.body),
      })
      expect(answer.status, `${write.tag} ${write.url} in ${write.session}`).toBe(entry.status)
    }
    // ...and the same state in every session.
    const sessions = [SHARED, ...Array.from({ length: CLIENTS }, (_, client) => `client-${client}`)]
    for (const session of sessions) {
      const replayed = await replay.store(session)
      for (const name of collectionNames) {
        const live = await server.collection(name, session)
        expect(live, `${name} in ${session}`).toEqual(
          JSON.parse(JSON.stringify(replayed[name].all())),
        )
      }
    }

    // Each 201 a client saw of a create is a record: one checkout session per 201.
    const before = (await replay.store('never-written')).checkoutSessions.count()
    for (const session of sessions) {
      const checkouts = created.filter(
        ([tag]) => all.get(tag)!.session === session && all.get(tag)!.url.startsWith('/checkout/'),
      )
      const records = await server.collection('checkoutSessions', session)
      expect(records.length, session).toBe(before + checkouts.length)
    }
  }, 120_000)
})
