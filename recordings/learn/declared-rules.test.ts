/**
 * The learner has no rule of its own: an operation declared only here, with the core's
 * vocabulary, is learned from its recorded answers, and played forward, without a line of
 * the recordings code knowing it.
 */
import { describe, expect, it } from 'vitest'
import { defineBuiltInOperation, rulesOn } from '../../mocks/core/index.ts'
import { nonEmpty, z } from '../../mocks/model/zod.ts'
import { operations } from '../../mocks/operations/table.ts'
import { createHar, createHarEntry } from '../har.ts'
import { learnScenario } from './learn-scenario.ts'

const venue = rulesOn('venues', 'venue')

/** A made-up 14th operation: the caller asks to feature an unclaimed venue. */
const featureVenue = defineBuiltInOperation({
  id: 'featureVenue',
  row: 14,
  method: 'POST',
  path: '/venues/{listingId}/feature',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ listingId: nonEmpty() }),
  body: z.strictObject({}),
  rules: {
    requires: [
      venue.exists({
        key: ({ params }) => params.listingId!,
        message: ({ params }) => `Venue "${params.listingId}" not found`,
      }),
      venue.oneOf(
        'claimStatus',
        ['unclaimed'],
        ({ id, claimStatus }) => `Venue "${id}" is ${claimStatus}`,
      ),
    ],
    effects: [venue.update({ set: { claimStatus: 'claim_requested' } })],
    answer: { featured: true },
  },
})

const exchange = (path: string, status: number) =>
  createHarEntry({
    method: 'POST',
    url: `https://staging.example.com${path}`,
    requestHeaders: {
      'content-type': 'application/json',
      authorization: 'Bearer [REDACTED sub=usr_f1]',
    },
    requestBody: '{}',
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{}',
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 3,
  })

const recording = createHar([
  exchange('/venues/ven_f1/feature', 201),
  exchange('/venues/ven_f1/feature?dryRun=true', 409),
  exchange('/venues/ven_f2/feature', 404),
  exchange('/venues/ven_f3/feature', 409),
  // Contradicts the first: the venue was unclaimed, and a write since made it requested.
  exchange('/venues/ven_f1/feature', 201),
])

describe('an operation the recordings code does not know', () => {
  it('is learned from its declared rules: what held, what failed, what the write changed', async () => {
    const learned = await learnScenario(recording, {
      operations: [...operations, featureVenue],
    })
    expect(learned.exchanges).toBe(5)
    expect(learned.covered).toBe(4)
    expect(learned.notCovered).toEqual([
      {
        index: 4,
        label: '#5 POST /venues/ven_f1/feature 201',
        reason:
          'venues ven_f1: claimStatus would have to be unclaimed, but was claim_requested by #1',
      },
    ])
    const venues = new Map(learned.scenario.add?.venues?.map((venue) => [venue.id, venue]))
    expect(venues.get('ven_f1')?.claimStatus).toBe('unclaimed')
    expect(venues.get('ven_f3')?.claimStatus).not.toBe('unclaimed')
    expect(venues.has('ven_f2')).toBe(false)
    expect(learned.scenario.add?.users?.map((user) => user.publicId)).toEqual(['usr_f1'])
  })

  it('is played forward by a sandbox serving it, to where the recording stopped', async () => {
    const learned = await learnScenario(recording, {
      operations: [...operations, featureVenue],
      at: 'end',
    })
    expect(learned.covered).toBe(4)
    const venues = new Map(learned.scenario.add?.venues?.map((venue) => [venue.id, venue]))
    expect(venues.get('ven_f1')?.claimStatus).toBe('claim_requested')
  })

  it('is no operation of a table without it', async () => {
    const learned = await learnScenario(recording)
    expect(learned.exchanges).toBe(0)
    expect(learned.others).toHaveLength(5)
  })
})
