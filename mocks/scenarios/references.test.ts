import { describe, expect, it } from 'vitest'
import type { CollectionName } from '../model/schemas.ts'
import { checkReferences } from './references.ts'

const known = new Set(['users:usr_a', 'users:usr_b', 'bookings:bkg_1'])
const exists = (target: CollectionName, id: string) => known.has(`${target}:${id}`)

describe('checkReferences', () => {
  it('names each dangling reference: plain fields, array items and fields of array items', () => {
    const contract = {
      id: 'ctr_1',
      bookingId: 'bkg_404',
      partyIds: ['usr_a', 'usr_x'],
      signatures: [{ userId: 'usr_b' }, { userId: 'usr_y' }],
    }
    expect(checkReferences('contracts', contract, 'contracts[0]', exists)).toEqual([
      'contracts[0].bookingId: no booking "bkg_404"',
      'contracts[0].partyIds[1]: no user "usr_x"',
      'contracts[0].signatures[1].userId: no user "usr_y"',
    ])
  })

  it('accepts references that resolve, and skips fields left null or out', () => {
    const contract = {
      bookingId: 'bkg_1',
      partyIds: ['usr_a', 'usr_b'],
      signatures: [{ userId: 'usr_a' }],
    }
    expect(checkReferences('contracts', contract, 'c', exists)).toEqual([])
    expect(checkReferences('notifications', { userId: null }, 'n', exists)).toEqual([])
    expect(checkReferences('bookings', { hostId: 'usr_a' }, 'b', exists)).toEqual([])
  })

  it('checks a follow’s id against its two users', () => {
    const follow = { id: 'usr_a:usr_c', followerId: 'usr_a', followeeId: 'usr_b' }
    expect(checkReferences('follows', follow, 'follows[2]', exists)).toEqual([
      'follows[2].id: expected "usr_a:usr_b", got "usr_a:usr_c"',
    ])
  })
})
