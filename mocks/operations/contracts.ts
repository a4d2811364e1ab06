/**
 * @module
 * Contracts area: a party signs a contract (row 9).
 */
import { conflict, forbidden, notFound } from '../core/errors.ts'
import { defineOperation } from '../core/operation.ts'
import { NOT_BLANK } from '../model/shapes.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { acknowledgement, notify, signedIn } from './side-effects.ts'

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
  async run({ params, body, caller, store, now }) {
    const signer = signedIn(caller)
    const contract = store.contracts.get(params.contractId)
    if (!contract) throw notFound(`Contract "${params.contractId}" not found`)
    if (!contract.partyIds.includes(signer.publicId)) {
      throw forbidden('Only a party to the contract can sign it')
    }
    if (contract.signatures.some((signature) => signature.userId === signer.publicId)) {
      throw conflict(`Contract "${contract.id}" is already signed by the caller`)
    }
    return {
      body: acknowledgement,
      async apply() {
        await store.contracts.update(contract.id, (draft) => {
          draft.signatures.push({
            userId: signer.publicId,
            fullName: body.fullName,
            signedAt: now.toISOString(),
          })
          const signers = new Set(draft.signatures.map((signature) => signature.userId))
          if (draft.partyIds.every((party) => signers.has(party))) draft.status = 'signed'
        })
        for (const party of contract.partyIds) {
          if (party === signer.publicId) continue
          await notify(store, now, {
            userId: party,
            kind: 'contract.signed',
            title: 'Contract signed',
            body: `${body.fullName} signed contract ${contract.id}.`,
          })
        }
      },
    }
  },
})
