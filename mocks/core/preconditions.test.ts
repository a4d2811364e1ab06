/**
 * Rules declared on a record are plain data the pipeline and the learner read, and are checked
 * against the record's collection: each `@ts-expect-error` below fails `tsc` once the typing is
 * lost (an unused directive is an error), as a misspelt field would otherwise compile.
 */
import { describe, expect, it } from 'vitest'
import { rulesOn } from './rules-on.ts'

const booking = rulesOn('bookings', 'booking')
const contract = rulesOn('contracts', 'contract')

describe('rules declared on a record', () => {
  it('are the plain preconditions and writes the pipeline checks and the learner reads', () => {
    const key = ({ params }: { params: Readonly<Record<string, string>> }) => params.bookingId!
    const message = () => 'not found'
    expect(booking.exists({ key, message })).toEqual({
      kind: 'exists',
      name: 'booking',
      collection: 'bookings',
      key,
      message,
    })
    const pending = (record: { id: string }) => `${record.id} is not pending`
    expect(booking.oneOf('status', ['pending'], pending)).toEqual({
      kind: 'oneOf',
      record: 'booking',
      field: 'status',
      values: ['pending'],
      message: pending,
    })
    expect(booking.update({ set: { status: 'declined' } })).toEqual({
      update: 'booking',
      set: { status: 'declined' },
    })
    expect(booking.of({ records: { booking: { id: 'bkg_1' } } })).toEqual({ id: 'bkg_1' })
  })

  it('name only fields, values and list items the collection has', () => {
    const message = () => 'refused'
    const wrong = [
      // @ts-expect-error a booking has no `stauts`
      booking.oneOf('stauts', ['pending'], message),
      // @ts-expect-error `pendng` is no status of a booking
      booking.noneOf('status', ['pendng'], message),
      // @ts-expect-error a booking's host is `hostId`
      booking.caller('host', 'Only the host'),
      // @ts-expect-error a signature names its signer by `userId`
      contract.notActed('signatures', 'user', message),
      // @ts-expect-error `status` is no list
      contract.callerIn('status', 'Only a party'),
      // @ts-expect-error a contract has no `signed` field to set
      contract.update({ set: { signed: true } }),
      // @ts-expect-error `done` is no status of a contract
      contract.update({ set: { status: 'done' } }),
    ]
    expect(wrong).toHaveLength(7)
  })
})
