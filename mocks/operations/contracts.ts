/**
 * @module
 * Contracts area: a party signs a contract (row 9).
 */
import { defineBuiltInOperation, rulesOn } from '../core/index.ts'
import { NOT_BLANK } from '../model/shapes.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify } from './side-effects.ts'

const contract = rulesOn('contracts', 'contract')

export const signContract = defineBuiltInOperation({
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
      contract.exists({
        key: ({ params }) => params.contractId!,
        message: ({ params }) => `Contract "${params.contractId}" not found`,
      }),
      contract.callerIn('partyIds', 'Only a party to the contract can sign it'),
      contract.notActed(
        'signatures',
        'userId',
        ({ id }) => `Contract "${id}" is already signed by the caller`,
      ),
    ],
    effects: [
      // Signed before a recording, with no name sent: the signer's display name.
      contract.act((draft, { caller, body, now, store }) => {
        const fullName =
          (body.fullName as string | undefined) ?? store.users.get(caller)?.displayName ?? caller
        draft.signatures.push({ userId: caller, fullName, signedAt: now.toISOString() })
        const signers = new Set(draft.signatures.map((signature) => signature.userId))
        if (draft.partyIds.every((party) => signers.has(party))) draft.status = 'signed'
      }),
    ],
    after: async ({ store, now, caller, body, records }) => {
      const { id, partyIds } = contract.of({ records })
      for (const party of partyIds) {
        if (party === caller) continue
        await notify(store, now, {
          userId: party,
          kind: 'contract.signed',
          title: 'Contract signed',
          body: `${body.fullName} signed contract ${id}.`,
        })
      }
    },
    answer: acknowledgement,
  },
})
