/**
 * `requestBody.required` says what the sandbox does with a request that has no body: `true`
 * in the merged and the app document exactly where the sandbox refuses a missing body (400),
 * `false` where it takes the missing body as `{}` (issue 30, item 1). Code generators (hey-api,
 * orval) make a body optional when `required` is not `true`.
 */
import { describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { operations } from '../mocks/operations/table.ts'
import { MERGED_JSON_PATH } from '../scripts/spec/generated-files.ts'
import { renderAppDocument } from '../scripts/spec/write-app-document.ts'
import { useSandbox } from '../test-support/sandbox/use-sandbox.ts'
import type { OpenAPIDocument } from './app-document.ts'

const { api } = useSandbox()
const app = await renderAppDocument()
const merged = (await import(MERGED_JSON_PATH, { with: { type: 'json' } }))
  .default as OpenAPIDocument

/** A path parameter of each operation that names a record its persona may change. */
const pathParams: Record<string, string> = {
  email: 'applicant@sandbox.test',
  listingId: 'ven_pending_review',
  targetPublicId: 'usr_guest',
  bookingId: anchors.bookings.pending,
  contractId: 'ctr_unsigned',
  id: 'ntf_host_unarchived',
}

const posts = operations.filter((operation) => operation.body !== undefined)

function requiredIn(document: OpenAPIDocument, path: string): unknown {
  const operation = document.paths[path]?.post as { requestBody?: { required?: unknown } }
  return operation.requestBody?.required
}

describe('requestBody.required', () => {
  it.each(posts.map((operation) => [operation.id, operation] as const))(
    '%s: true in both documents exactly where the sandbox refuses a missing body',
    async (_id, operation) => {
      const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(pathParams[name]!),
      )
      const response = await api.request(operation.dryRun ? `${url}?dryRun=true` : url, {
        method: 'POST',
        ...(operation.auth === 'public'
          ? {}
          : { as: operation.auth === 'admin' ? 'admin' : 'host' }),
      })
      const refusedForItsBody =
        response.status === 400 &&
        (response.body.details as string[]).some((detail) => detail.endsWith(' is required'))
      expect(refusedForItsBody).toBe(!operation.body!.safeParse({}).success)
      expect(requiredIn(merged, operation.path), 'merged').toBe(refusedForItsBody)
      expect(requiredIn(app, operation.path), 'app').toBe(refusedForItsBody)
    },
  )

  it('is true for the five operations whose body has a required field', () => {
    const required = posts.filter((operation) => requiredIn(app, operation.path) === true)
    expect(required.map((operation) => operation.id)).toEqual([
      'updateAmbassadorApplicationStatus',
      'signContract',
      'createCheckoutSession',
      'completeIdpSignIn',
      'testRefundWebhook',
    ])
  })
})
