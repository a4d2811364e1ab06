import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../testing/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const decline = `/bookings/${anchors.bookings.pending}/decline`

async function bookingStatus(): Promise<string | undefined> {
  return (await sandbox.store()).bookings.get(anchors.bookings.pending)?.status
}

describe('a malformed dryRun is refused and writes nothing', () => {
  it.each([
    ['dryRun=false&dryRun=true', 'dryRun must be given once, got 2 values (false, true)'],
    ['dryRun=true&dryRun=yes', 'dryRun must be given once, got 2 values (true, yes)'],
    ['dryRun=true&dryRun=true', 'dryRun must be given once, got 2 values (true, true)'],
    [
      'dryRun[]=true',
      'query parameter "dryRun[]" is not recognised: send exactly one dryRun=true or dryRun=false',
    ],
    [
      'DRYRUN=true',
      'query parameter "DRYRUN" is not recognised: send exactly one dryRun=true or dryRun=false',
    ],
    [
      'dryrun=true',
      'query parameter "dryrun" is not recognised: send exactly one dryRun=true or dryRun=false',
    ],
    [
      'dry_run=true',
      'query parameter "dry_run" is not recognised: send exactly one dryRun=true or dryRun=false',
    ],
    [
      'dryRun=true&dryRun[0]=false',
      'query parameter "dryRun[0]" is not recognised: send exactly one dryRun=true or dryRun=false',
    ],
    ['dryRun=TRUE', 'dryRun must be one of: true, false'],
    ['dryRun=', 'dryRun must be one of: true, false'],
  ])('answers 400 for ?%s', async (query, detail) => {
    const response = await api.call(`${decline}?${query}`, { as: 'host', body: {} })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      message: 'Validation failed',
      code: 'BAD_REQUEST',
      details: [detail],
    })
    expect(await bookingStatus()).toBe('pending')
    expect(sandbox.journal.list().at(-1)).toMatchObject({ status: 400, path: decline })
  })

  it('still writes for exactly one dryRun=false', async () => {
    const response = await api.call(`${decline}?dryRun=false`, { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(await bookingStatus()).toBe('declined')
  })

  it('still validates without writing for exactly one dryRun=true', async () => {
    const response = await api.call(`${decline}?dryRun=true`, { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(await bookingStatus()).toBe('pending')
  })
})
