import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'
import { readDryRunQuery } from './request-input.ts'

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
    const response = await api.request(`${decline}?${query}`, { as: 'host', body: {} })
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
    const response = await api.request(`${decline}?dryRun=false`, { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(await bookingStatus()).toBe('declined')
  })

  it('still validates without writing for exactly one dryRun=true', async () => {
    const response = await api.request(`${decline}?dryRun=true`, { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(await bookingStatus()).toBe('pending')
  })
})

describe('a query key is read in one pass', () => {
  it('answers a key of 100,000 "[" as an unknown parameter and writes', async () => {
    const key = '['.repeat(100_000)
    const response = await api.request(`${decline}?${key}=true`, { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(await bookingStatus()).toBe('declined')
  })

  it('refuses dryRun with an index of 100,000 "[" as the array form', () => {
    const key = `dryRun${'['.repeat(100_000)}]`
    expect(() => readDryRunQuery(new URLSearchParams([[key, 'true']]))).toThrow(
      expect.objectContaining({ status: 400 }),
    )
  })

  it('refuses exactly the keys the former regular expression refused', () => {
    // The former reading, kept as the reference: it is quadratic on long keys, which the
    // generated keys here never are.
    const formerlyRefused = (key: string) =>
      key !== 'dryRun' &&
      key
        .replace(/\[[^\]]*\]$/, '')
        .replace(/[-_\s]/g, '')
        .toLowerCase() === 'dryrun'
    const marks = fc.string({ unit: fc.constantFrom('[', ']', '0', '-', '_', ' '), maxLength: 6 })
    const name = fc.constantFrom(
      'dryRun',
      'DRYRUN',
      'dry-run',
      'dry_run',
      'dry Run',
      'dry',
      'x',
      '',
    )
    const key = fc.tuple(marks, name, marks).map((parts) => parts.join(''))
    fc.assert(
      fc.property(key, (generated) => {
        const refused = (() => {
          try {
            readDryRunQuery(new URLSearchParams([[generated, 'true']]))
            return false
          } catch {
            return true
          }
        })()
        expect(refused).toBe(formerlyRefused(generated))
      }),
      { numRuns: 2000 },
    )
  })
})
