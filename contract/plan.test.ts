import { describe, expect, it } from 'vitest'
import { buildMergedDocument, loadPublishedDocument } from '../scripts/spec/build-document.ts'
import type { ConformanceCase } from '../spec/cases/types.ts'
import { ANY_DOCUMENTED_STATUS, indexOperations, planCase } from './plan.ts'

const decline = (status: number, extra: Partial<ConformanceCase> = {}): ConformanceCase => ({
  name: `declineBooking ${status}`,
  operationId: 'declineBooking',
  request: { method: 'POST', url: '/bookings/bkg_pending/decline', as: 'host', body: {} },
  expect: { status },
  ...extra,
})

describe('planCase', () => {
  it('sends a writing call to the published contract as its dryRun=true twin', async () => {
    const published = indexOperations(await loadPublishedDocument())

    expect(planCase(decline(201), 'published', published)).toEqual({
      route: 'forward',
      url: '/bookings/bkg_pending/decline?dryRun=true',
    })
  })

  it('does not send a status the published contract does not document', async () => {
    const published = indexOperations(await loadPublishedDocument())

    expect(planCase(decline(409), 'published', published)).toEqual({
      route: 'not-applicable',
      reason: 'the published contract documents no 409 for declineBooking',
    })
    expect(planCase(decline(ANY_DOCUMENTED_STATUS), 'published', published).route).toBe('forward')
  })

  it('sends every status to the merged contract, unchanged', async () => {
    const merged = indexOperations(await buildMergedDocument())

    expect(planCase(decline(409), 'merged', merged)).toEqual({
      route: 'forward',
      url: '/bookings/bkg_pending/decline',
    })
  })

  it('sends a request that breaks the contract to be refused first', async () => {
    const merged = indexOperations(await buildMergedDocument())
    const breaking = decline(400, { contract: { breaks: ['merged'] } })

    expect(planCase(breaking, 'merged', merged).route).toBe('refuse-then-forward')
  })

  it('skips a case Prism cannot check, and says why', async () => {
    const merged = indexOperations(await buildMergedDocument())

    expect(planCase(decline(400, { contract: { skip: 'because' } }), 'merged', merged)).toEqual({
      route: 'skip',
      reason: 'because',
    })
  })

  it('reads the contract’s own request examples', async () => {
    const published = indexOperations(await loadPublishedDocument())

    expect([...(published.get('refreshToken')?.requestExamples.keys() ?? [])]).toEqual([
      'refreshToken',
    ])
  })
})
