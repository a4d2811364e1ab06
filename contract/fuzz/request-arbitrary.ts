/**
 * @module
 * Seeded random requests for the contract fuzz: mostly well-formed calls of a documented
 * operation (known ids, real tokens, valid bodies), mixed with every kind of bad input
 * (other methods, odd path segments, malformed `dryRun`, forged tokens, bad session ids,
 * wrong media types, malformed, non-object and oversized bodies).
 */
import fc from 'fast-check'
import { anchors } from '../../fixtures/anchors.ts'
import { personas } from '../../fixtures/personas.ts'
import { collectionNames } from '../../mocks/model/schemas.ts'
import { SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'
import {
  controlFieldValues,
  extremeValues,
  faultStatusValues,
  otherSessionIds,
  preferHeader,
} from './control-arbitrary.ts'
import type { DocumentedOperation } from './document-checker.ts'

export interface FuzzRequest {
  operation: DocumentedOperation
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
}

const knownIds = [
  ...Object.values(anchors.applications),
  ...Object.values(anchors.venues),
  ...Object.values(anchors.bookings),
  ...Object.values(anchors.contracts),
  ...Object.values(anchors.notifications),
  ...personas.map((persona) => persona.publicId),
  ...personas.map((persona) => encodeURIComponent(persona.email)),
  ...collectionNames,
  anchors.revokedUser.publicId,
]

const oddSegments = ['%', '%E0%A4%A', '..', '.', 'a'.repeat(300), '%00', '%2F', 'null', '🙂']

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...knownIds) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, unit: 'grapheme' }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.constantFrom(...oddSegments) },
)

const query = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('', '?dryRun=true', '?dryRun=false') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?dryRun=',
      '?dryRun=yes',
      '?dryRun=false&dryRun=true',
      '?dryRun[]=true',
      '?DRYRUN=true',
      '?access_token=eyJ.x.y',
      '?session=qa-1',
      '?%',
      '?limit=9999999',
      '?limit=0',
      '?limit=-1',
      '?limit=1e308',
      `?limit=${'9'.repeat(400)}`,
      '?session=',
      `?session=${'s'.repeat(65)}`,
    ),
  },
  { weight: 1, arbitrary: fc.string().map((text) => `?dryRun=${encodeURIComponent(text)}`) },
)

const sessionHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz.3', 'fuzz:4') },
  { weight: 1, arbitrary: fc.constantFrom('bad id', 'a'.repeat(65), 'ümlaut', '../x') },
  { weight: 1, arbitrary: otherSessionIds },
)

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/json; charset=utf-8',
      'application/merge-patch+json',
      'multipart/form-data',
    ),
  },
)

/** Bodies a real client would send, by field: valid values and near misses. */
const fieldValues: Record<string, readonly unknown[]> = {
  refreshToken: [...personas.map((p) => p.refreshToken), anchors.revokedUser.refreshToken, 'x', 1],
  code: [...personas.map((persona) => persona.idpCode), 'idp_nobody', ''],
  status: ['approved', 'rejected', 'pending', 3, ...faultStatusValues],
  note: ['Welcome', 'x'.repeat(1001)],
  email: ['someone@example.test', 'not-an-email'],
  reason: ['Fully booked', 'x'.repeat(1001), null],
  fullName: ['Hana Host', '', 'x'.repeat(201)],
  bookingId: [...Object.values(anchors.bookings), 'bkg_nope', 42],
  amount: [1, 10_000_000, -1, 0, '5'],
  scenario: ['default', 'empty', 'nope', ''],
  ...controlFieldValues,
}

/** A field's valid value or near miss, now and then a value out of every range. */
const fieldValue = (field: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(fieldValues[field] ?? ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom(...extremeValues) },
  )

/** A body of some of `fields` (those of the operation, mostly), each a valid value or a near miss. */
function wellFormedBody(fields: readonly string[]) {
  return fc
    .subarray([...fields])
    .chain((chosen) =>
      fc.record(Object.fromEntries(chosen.map((field) => [field, fieldValue(field)]))),
    )
    .map((value) => JSON.stringify(value))
}

function bodyFor(fields: readonly string[]) {
  return fc.oneof(
    { weight: 60, arbitrary: wellFormedBody(fields) },
    { weight: 10, arbitrary: wellFormedBody(Object.keys(fieldValues)) },
    { weight: 20, arbitrary: fc.constantFrom(undefined, '', '{}') },
    { weight: 10, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    {
      weight: 10,
      arbitrary: fc.constantFrom('{', '[]', 'null', '"text"', '{"__proto__":{"admin":true}}'),
    },
    { weight: 10, arbitrary: fc.string() },
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ reason: 'x'.repeat(110_000) })) },
  )
}

/** Requests for `operations`, signed with `tokens` (access tokens by persona key) or not. */
export function fuzzRequest(
  operations: readonly DocumentedOperation[],
  tokens: readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const authorization = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...tokens.map((token) => `Bearer ${token}`)) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Bearer x.y.z', 'Basic YTpi', 'Bearer', `Bearer ${tokens[0]} x`),
    },
  )
  return fc
    .constantFrom(...operations)
    .chain((operation) =>
      fc.record({
        operation: fc.constant(operation),
        body: bodyFor(operation.bodyFields),
        otherMethod: fc.oneof(
          { weight: 9, arbitrary: fc.constant(undefined) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
          },
        ),
        segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
        query,
        session: sessionHeader,
        authorization,
        contentType,
        prefer: preferHeader,
      }),
    )
    .map(({ operation, otherMethod, segments, session, authorization, contentType, ...rest }) => {
      let index = 0
      const path = operation.path.replace(/\{\w+\}/g, () => segments[index++]!)
      const headers: Record<string, string> = {}
      if (session !== undefined) headers[SESSION_HEADER] = session
      if (authorization !== undefined) headers.authorization = authorization
      if (contentType !== undefined) headers['content-type'] = contentType
      if (rest.prefer !== undefined) headers.prefer = rest.prefer
      const method = otherMethod ?? operation.method
      return {
        operation,
        method,
        url: `${path}${rest.query}`,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : rest.body,
      }
    })
}

/** A run of calls on one session, then a request the test sends after resetting that session. */
export interface FuzzSequence {
  calls: FuzzRequest[]
  after: FuzzRequest
}

export function fuzzSequence(
  calls: readonly DocumentedOperation[],
  after: readonly DocumentedOperation[],
  tokens: readonly string[],
): fc.Arbitrary<FuzzSequence> {
  return fc.record({
    calls: fc.array(fuzzRequest(calls, tokens), { minLength: 1, maxLength: 8 }),
    after: fuzzRequest(after, tokens),
  })
}
