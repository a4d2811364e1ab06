/**
 * The sandbox's recorded exchanges, one JSON file per operation, read without any Node API so
 * that every runtime can load them: the merged contract carries them as OpenAPI `examples`, and
 * the contract check and the conformance suite replay them against the sandbox.
 *
 * @module
 */
import { nonEmpty, z } from '../../mocks/model/zod.ts'
import approveReview from './approveReview.json' with { type: 'json' }
import archiveNotification from './archiveNotification.json' with { type: 'json' }
import completeIdpSignIn from './completeIdpSignIn.json' with { type: 'json' }
import createCheckoutSession from './createCheckoutSession.json' with { type: 'json' }
import declineBooking from './declineBooking.json' with { type: 'json' }
import followUser from './followUser.json' with { type: 'json' }
import getAccountStatus from './getAccountStatus.json' with { type: 'json' }
import refreshToken from './refreshToken.json' with { type: 'json' }
import rejectReview from './rejectReview.json' with { type: 'json' }
import sendVenueClaimEmail from './sendVenueClaimEmail.json' with { type: 'json' }
import signContract from './signContract.json' with { type: 'json' }
import testRefundWebhook from './testRefundWebhook.json' with { type: 'json' }
import updateAmbassadorApplicationStatus from './updateAmbassadorApplicationStatus.json' with {
  type: 'json',
}

const stringMap = z.record(z.string(), z.string())

/** What a recorded request sends, beyond the operation's method and path. */
const recordedRequestSchema = z.strictObject({
  /** Persona key (`GET /__sandbox/personas`) whose access token goes in `Authorization`. */
  as: z.optional(nonEmpty()),
  /** A raw `Authorization` header, for requests with a deliberately bad token. */
  authorization: z.optional(z.string()),
  /** Values of the path template's `{parameters}`, not yet percent-encoded. */
  params: z.optional(stringMap),
  query: z.optional(stringMap),
  headers: z.optional(stringMap),
  /** JSON body; sent with `Content-Type: application/json`. */
  body: z.optional(z.unknown()),
})

const exampleSchema = z.strictObject({
  summary: nonEmpty(),
  request: recordedRequestSchema,
  response: z.strictObject({
    status: z.number().check(z.int(), z.gte(100), z.lte(599)),
    body: z.optional(z.unknown()),
  }),
})

/** The shape of one `spec/examples/<operationId>.json` file. */
export const recordedExampleFileSchema = z.strictObject({
  operationId: nonEmpty(),
  method: z.enum(['GET', 'POST']),
  /** Path template, exactly as in the contract: `/bookings/{bookingId}/decline`. */
  path: z.string().check(z.startsWith('/')),
  /** By example name; the name is the OpenAPI example key (`Prefer: example=<name>`). */
  examples: z.record(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9]*$/)), exampleSchema),
})

type Example = z.infer<typeof exampleSchema>
export type RecordedRequest = Example['request']
export type RecordedResponse = Example['response']
export type RecordedExampleFile = z.infer<typeof recordedExampleFileSchema>

/** One recorded exchange: a request to an operation and the sandbox's answer to it. */
export type RecordedExample = Omit<RecordedExampleFile, 'examples'> & Example & { name: string }

const files = [
  refreshToken,
  getAccountStatus,
  updateAmbassadorApplicationStatus,
  sendVenueClaimEmail,
  approveReview,
  rejectReview,
  followUser,
  declineBooking,
  signContract,
  createCheckoutSession,
  completeIdpSignIn,
  archiveNotification,
  testRefundWebhook,
]

/**
 * The example files, in the reference's row order: committed data, checked against
 * `recordedExampleFileSchema` by `examples.test.ts`, so loading them costs no validation.
 */
export const recordedExampleFiles = files as readonly RecordedExampleFile[]

/** Every recorded exchange, flattened. */
export const recordedExamples: readonly RecordedExample[] =
  /* @__PURE__ */ flattenExamples(recordedExampleFiles)

/** The exchanges of examples files, flattened: those of this folder, or a project's own. */
export function flattenExamples(exampleFiles: readonly RecordedExampleFile[]): RecordedExample[] {
  return exampleFiles.flatMap((file) =>
    Object.entries(file.examples).map(([name, example]) => ({
      operationId: file.operationId,
      method: file.method,
      path: file.path,
      name,
      ...example,
    })),
  )
}

/** The recorded exchange `name` of `operationId`; throws when there is none. */
export function getRecordedExample(operationId: string, name: string): RecordedExample {
  const found = recordedExamples.find(
    (example) => example.operationId === operationId && example.name === name,
  )
  if (!found) {
    throw new Error(`Failed to find recorded example "${name}" of operation "${operationId}"`)
  }
  return found
}

/** The path of a recorded request: template filled in (percent-encoded) plus query string. */
export function recordedRequestUrl(example: Pick<RecordedExample, 'path' | 'request'>): string {
  const path = example.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = example.request.params?.[name]
    if (value === undefined) {
      throw new Error(`Failed to build the URL of ${example.path}: no value for {${name}}`)
    }
    return encodeURIComponent(value)
  })
  const query = new URLSearchParams(example.request.query ?? {}).toString()
  return query ? `${path}?${query}` : path
}
