/**
 * Contracts: a party signs a contract (row 9).
 *
 * @module
 */
import {
  invalidBody,
  NOT_NULL,
  type OperationProfile,
  replay,
  sharedErrorCases,
  withDryRun,
} from './build.ts'
import type { ConformanceCase } from './types.ts'

const sign: OperationProfile = {
  operationId: 'signContract',
  success: 'signAsGuest',
  bearer: ['merged'],
  dryRun: true,
  closedBody: ['merged'],
  writes: ['contracts', 'notifications'],
}

const signed = replay(sign, 'signAsGuest', {
  changes: [
    {
      collection: 'contracts',
      where: { id: 'ctr_unsigned' },
      before: { count: 1, every: { status: 'pending', signatures: [] } },
      after: { count: 1, every: { status: 'pending' } },
    },
    {
      collection: 'notifications',
      where: { userId: 'usr_host', kind: 'contract.signed' },
      added: 1,
    },
  ],
})

export const contractCases: ConformanceCase[] = [
  signed,
  withDryRun(sign, signed),
  {
    name: 'signContract: 201 the last signature makes the contract signed',
    operationId: 'signContract',
    request: {
      method: 'POST',
      url: '/contracts/ctr_signed_by_host/sign',
      as: 'guest',
      body: { fullName: 'Gina Guest' },
    },
    expect: { status: 201, body: { success: true } },
    changes: [
      {
        collection: 'contracts',
        where: { id: 'ctr_signed_by_host' },
        before: { count: 1, every: { status: 'pending' } },
        after: { count: 1, every: { status: 'signed', bookingId: 'bkg_paid', id: NOT_NULL } },
      },
    ],
  },
  replay(sign, 'notAParty'),
  replay(sign, 'unknownContract'),
  replay(sign, 'alreadySigned'),
  invalidBody(sign, {}, ['fullName is required'], ['merged']),
  ...sharedErrorCases(sign),
]
