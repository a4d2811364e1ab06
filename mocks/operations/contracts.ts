/**
 * @module
 * Contracts area: a party signs a contract (row 9).
 */
import { defineOperation } from '../core/operation.ts'
import { NOT_BLANK } from '../model/shapes.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

export const signContract = defineOperation({
  id: 'signContract',
  row: 9,
  method: 'POST',
  path: '/contracts/{contractId}/sign',
  auth: 'user',
  dryRun: true,
  successStatus: 201,
  params: z.object({ contractId: nonEmpty() }),
  // Lengths and the not-blank rule apply to the name as sent; the name kept is trimmed.
  body: z.strictObject({
    fullName: z.pipe(
      z.string().check(z.maxLength(200), z.regex(NOT_BLANK, 'should not be empty')),
      z.transform((name) => name.trim()),
    ),
  }),
  rules: {
    requires: [
      {
        kind: 'exists',
        name: 'contract',
        collection: 'contracts',
        key: ({ params }) => params.contractId!,
        message: ({ params }) => `Contract "${params.contractId}" not found`,
      },
      {
        kind: 'callerIn',
        record: 'contract',
        field: 'partyIds',
        message: 'Only a party to the contract can sign it',
      },
      {
        kind: 'notActed',
        record: 'contract',
        list: 'signatures',
        by: 'userId',
        message: (contract) => `Contract "${contract.id}" is already signed by the caller`,
      },
    ],
    effects: [
      {
        act: 'contract',
        draft: (draft, { caller, body, now }) => {
          draft.signatures.push({
            userId: caller,
            fullName: body.fullName,
            signedAt: now.toISOString(),
          })
          const signers = new Set(
            draft.signatures.map((signature: { userId: string }) => signature.userId),
          )
          if (draft.partyIds.every((party: string) => signers.has(party))) draft.status = 'signed'
        },
      },
    ],
    after: async ({ store, now, caller, body, records: { contract } }) => {
      for (const party of contract.partyIds) {
        if (party === caller) continue
        await notify(store, now, {
          userId: party,
          kind: 'contract.signed',
          title: 'Contract signed',
          body: `${body.fullName} signed contract ${contract.id}.`,
        })
      }
    },
    answer: acknowledgement,
  },
})
