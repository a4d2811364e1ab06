import { describe, expect, it } from 'vitest'
import { EMAIL, EMAIL_MAX_LENGTH, NOT_BLANK } from '../../mocks/model/shapes.ts'
import { operations } from '../../mocks/operations/table.ts'
import type { OpenAPIDocument } from '../../spec/app-document.ts'
import { buildMergedDocument, loadPublishedDocument } from './build-document.ts'

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

type JsonObject = Record<string, unknown>

interface Operation {
  method: string
  path: string
  operation: JsonObject
}

interface ReferenceRow {
  row: number
  method: string
  path: string
  operationId: string
  /** Success status as published; `default` where the reference does not show it. */
  success: string
}

/** Section 4.1 of the reference. */
const REFERENCE_ROWS: ReferenceRow[] = [
  { row: 1, method: 'post', path: '/auth/refresh', operationId: 'refreshToken', success: '200' },
  {
    row: 2,
    method: 'get',
    path: '/payprov/account-status',
    operationId: 'getAccountStatus',
    success: '200',
  },
  {
    row: 3,
    method: 'post',
    path: '/admin/ambassadors/applications/{email}/status',
    operationId: 'updateAmbassadorApplicationStatus',
    success: '201',
  },
  {
    row: 4,
    method: 'post',
    path: '/venues/{listingId}/send-claim-email',
    operationId: 'sendVenueClaimEmail',
    success: '201',
  },
  {
    row: 5,
    method: 'post',
    path: '/admin/reviews/{listingId}/approve',
    operationId: 'approveReview',
    success: '201',
  },
  {
    row: 6,
    method: 'post',
    path: '/admin/reviews/{listingId}/reject',
    operationId: 'rejectReview',
    success: '201',
  },
  {
    row: 7,
    method: 'post',
    path: '/users/{targetPublicId}/follow',
    operationId: 'followUser',
    success: '201',
  },
  {
    row: 8,
    method: 'post',
    path: '/bookings/{bookingId}/decline',
    operationId: 'declineBooking',
    success: '201',
  },
  {
    row: 9,
    method: 'post',
    path: '/contracts/{contractId}/sign',
    operationId: 'signContract',
    success: '201',
  },
  {
    row: 10,
    method: 'post',
    path: '/checkout/create-session',
    operationId: 'createCheckoutSession',
    success: 'default',
  },
  {
    row: 11,
    method: 'post',
    path: '/auth/idp/complete',
    operationId: 'completeIdpSignIn',
    success: 'default',
  },
  {
    row: 12,
    method: 'post',
    path: '/notifications/{id}/archive',
    operationId: 'archiveNotification',
    success: '201',
  },
  {
    row: 13,
    method: 'post',
    path: '/payprov/webhook/test-refund',
    operationId: 'testRefundWebhook',
    success: 'default',
  },
]

const DRY_RUN_ROWS = [1, 3, 4, 5, 6, 7, 8, 9, 12]
const ACTION_ROWS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]

const CONTROL_OPERATIONS = [
  ['get', '/__sandbox/health'],
  ['get', '/__sandbox/ready'],
  ['get', '/__sandbox/metrics'],
  ['get', '/__sandbox/personas'],
  ['post', '/__sandbox/reset'],
  ['get', '/__sandbox/scenarios'],
  ['post', '/__sandbox/scenarios'],
  ['get', '/__sandbox/snapshots'],
  ['post', '/__sandbox/snapshots'],
  ['get', '/__sandbox/snapshots/{name}'],
  ['delete', '/__sandbox/snapshots/{name}'],
  ['get', '/__sandbox/collections/{name}'],
  ['get', '/__sandbox/requests'],
  ['delete', '/__sandbox/requests'],
  ['get', '/__sandbox/requests.har'],
  ['get', '/__sandbox/openapi.json'],
  ['get', '/__sandbox/'],
  ['get', '/__sandbox/faults'],
  ['post', '/__sandbox/faults'],
  ['delete', '/__sandbox/faults'],
  ['delete', '/__sandbox/faults/{id}'],
  ['get', '/__sandbox/clock'],
  ['post', '/__sandbox/clock'],
  ['delete', '/__sandbox/clock'],
  ['get', '/__sandbox/docs'],
  ['get', '/__sandbox/events'],
  ['get', '/__sandbox/sessions'],
  ['delete', '/__sandbox/sessions/{id}'],
  ['get', '/__sandbox/collections'],
]

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Reads a nested value; `undefined` as soon as a step is missing. */
function at(value: unknown, ...keys: Array<string | number>): unknown {
  let current = value
  for (const key of keys) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key]
    else if (isRecord(current)) current = current[key]
    else return undefined
  }
  return current
}

/** Follows a local `#/...` reference once, if the value is one. */
function deref(document: OpenAPIDocument, value: unknown): unknown {
  const ref = at(value, '$ref')
  if (typeof ref !== 'string') return value
  const keys = ref.replace(/^#\//, '').split('/')
  return at(document, ...keys.map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~')))
}

function operationsOf(document: OpenAPIDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .flatMap(([method, operation]) => (isRecord(operation) ? [{ method, path, operation }] : [])),
  )
}

function operationAt(document: OpenAPIDocument, row: number): JsonObject {
  const reference = REFERENCE_ROWS.find((candidate) => candidate.row === row)
  const operation = reference && at(document.paths, reference.path, reference.method)
  if (!isRecord(operation)) throw new Error(`Failed to find the operation of row ${row}`)
  return operation
}

function parametersOf(document: OpenAPIDocument, operation: JsonObject): JsonObject[] {
  const parameters = operation.parameters
  if (!Array.isArray(parameters)) return []
  return parameters.map((parameter) => deref(document, parameter)).filter(isRecord)
}

function dryRunOf(document: OpenAPIDocument, operation: JsonObject): JsonObject | undefined {
  return parametersOf(document, operation).find((parameter) => parameter.name === 'dryRun')
}

function bodySchemaOf(operation: JsonObject): unknown {
  return at(operation, 'requestBody', 'content', 'application/json', 'schema')
}

function statusesOf(operation: JsonObject): string[] {
  const responses = operation.responses
  return isRecord(responses) ? Object.keys(responses).sort() : []
}

describe('published contract', () => {
  it('has exactly the 13 operations of the reference', async () => {
    const published = await loadPublishedDocument()
    const operations = operationsOf(published)

    expect(operations).toHaveLength(13)
    expect(
      operations
        .map(({ method, path, operation }) => ({
          row: operation['x-reference-row'],
          method,
          path,
          operationId: operation.operationId,
        }))
        .sort((a, b) => Number(a.row) - Number(b.row)),
    ).toEqual(
      REFERENCE_ROWS.map(({ row, method, path, operationId }) => ({
        row,
        method,
        path,
        operationId,
      })),
    )
  })

  it.each(REFERENCE_ROWS)('row $row answers $success on success', async ({ row, success }) => {
    const published = await loadPublishedDocument()
    const responses = at(operationAt(published, row), 'responses')

    expect(Object.keys(isRecord(responses) ? responses : {})[0]).toBe(success)
  })

  it('leaves the success status of rows 10, 11 and 13 open with a default acknowledgement', async () => {
    const published = await loadPublishedDocument()

    for (const row of [10, 11, 13]) {
      const operation = operationAt(published, row)
      expect(statusesOf(operation)).toEqual(['default'])
      expect(
        at(operation, 'responses', 'default', 'content', 'application/json', 'schema'),
      ).toEqual({
        $ref: '#/components/schemas/Acknowledgement',
      })
    }
  })

  it('carries a required dryRun=true query parameter on exactly rows 1, 3-9 and 12', async () => {
    const published = await loadPublishedDocument()

    for (const { row } of REFERENCE_ROWS) {
      const dryRun = dryRunOf(published, operationAt(published, row))
      if (!DRY_RUN_ROWS.includes(row)) {
        expect(dryRun, `row ${row}`).toBeUndefined()
        continue
      }
      expect(dryRun, `row ${row}`).toMatchObject({ in: 'query', required: true })
      expect(at(dryRun, 'schema', 'type')).toBe('string')
      expect(at(dryRun, 'schema', 'enum')).toEqual(['true'])
    }
  })

  it('describes the bodies of rows 3 to 13 only as JSON objects', async () => {
    const published = await loadPublishedDocument()

    for (const row of ACTION_ROWS) {
      const operation = operationAt(published, row)
      expect(at(operation, 'requestBody', 'required'), `row ${row}`).toBe(true)
      expect(bodySchemaOf(operation), `row ${row}`).toEqual({ type: 'object' })
    }
    expect(bodySchemaOf(operationAt(published, 1))).toEqual({
      $ref: '#/components/schemas/RefreshBodyDto',
    })
  })

  it('has bearer security on row 2 only, row 1 public and nothing said for rows 3 to 13', async () => {
    const published = await loadPublishedDocument()

    expect(published.security).toBeUndefined()
    expect(operationAt(published, 1).security).toEqual([])
    expect(operationAt(published, 2).security).toEqual([{ bearerAuth: [] }])
    for (const row of ACTION_ROWS) {
      expect(operationAt(published, row).security, `row ${row}`).toBeUndefined()
    }
    expect(at(published, 'components', 'securitySchemes', 'bearerAuth')).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    })
  })

  it('shows error responses for row 1 only', async () => {
    const published = await loadPublishedDocument()

    expect(statusesOf(operationAt(published, 1))).toEqual(['200', '400', '401'])
    for (const { row } of REFERENCE_ROWS.filter(({ row }) => row !== 1)) {
      expect(
        statusesOf(operationAt(published, row)).filter((status) => /^[45]/.test(status)),
        `row ${row}`,
      ).toEqual([])
    }
  })

  it('keeps the recorded examples', async () => {
    const published = await loadPublishedDocument()
    const refresh = operationAt(published, 1)

    const refreshToken = at(
      refresh,
      'requestBody',
      'content',
      'application/json',
      'examples',
      'refreshToken',
      'value',
      'refreshToken',
    )
    expect(String(refreshToken).split('.')).toHaveLength(2)
    expect(
      at(
        refresh,
        'responses',
        '400',
        'content',
        'application/json',
        'examples',
        'validationFailed',
        'value',
      ),
    ).toEqual({
      message: 'Validation failed',
      code: 'BAD_REQUEST',
      details: ['startsAt must be a valid ISO 8601 date string'],
    })
  })

  it('has no sandbox additions', async () => {
    const published = await loadPublishedDocument()

    expect(Object.keys(published.paths).filter((path) => path.startsWith('/__sandbox'))).toEqual([])
    expect(published.components?.responses).toBeUndefined()
    expect(published.components?.parameters).toBeUndefined()
    expect(JSON.stringify(published)).not.toContain('x-sandbox')
  })
})

describe('merged sandbox document', () => {
  it('keeps the 13 operations and adds the control API', async () => {
    const merged = await buildMergedDocument()
    const operations = operationsOf(merged)

    for (const { row, method, path, operationId } of REFERENCE_ROWS) {
      expect(at(merged.paths, path, method, 'operationId'), `row ${row}`).toBe(operationId)
    }
    expect(
      operations
        .filter(({ path }) => path.startsWith('/__sandbox'))
        .map(({ method, path }) => [method, path]),
    ).toEqual(CONTROL_OPERATIONS)
    expect(operations).toHaveLength(13 + CONTROL_OPERATIONS.length)
  })

  it('makes dryRun optional, with "true" and "false" allowed', async () => {
    const merged = await buildMergedDocument()

    for (const row of DRY_RUN_ROWS) {
      const dryRun = dryRunOf(merged, operationAt(merged, row))
      expect(dryRun, `row ${row}`).toMatchObject({ in: 'query', required: false })
      expect(at(dryRun, 'schema', 'enum')).toEqual(['true', 'false'])
    }
  })

  it.each([
    {
      row: 3,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['status'],
        properties: {
          status: { type: 'string', enum: ['approved', 'rejected'] },
          note: { type: 'string', maxLength: 1000 },
        },
      },
    },
    {
      row: 4,
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          email: { type: 'string', maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL.source },
        },
      },
    },
    {
      row: 5,
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: { reason: { type: 'string', maxLength: 1000 } },
      },
    },
    {
      row: 6,
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: { reason: { type: 'string', maxLength: 1000 } },
      },
    },
    { row: 7, schema: { type: 'object', additionalProperties: false } },
    {
      row: 8,
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: { reason: { type: 'string', maxLength: 1000 } },
      },
    },
    {
      row: 9,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['fullName'],
        properties: {
          fullName: { type: 'string', minLength: 1, maxLength: 200, pattern: NOT_BLANK.source },
        },
      },
    },
    {
      row: 10,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['bookingId'],
        properties: { bookingId: { type: 'string', minLength: 1 } },
      },
    },
    {
      row: 11,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['code'],
        properties: { code: { type: 'string', minLength: 1 } },
      },
    },
    { row: 12, schema: { type: 'object', additionalProperties: false } },
    {
      row: 13,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['bookingId'],
        properties: {
          bookingId: { type: 'string', minLength: 1 },
          amount: { type: 'number', exclusiveMinimum: 0 },
        },
      },
    },
  ])('gives row $row its body fields', async ({ row, schema }) => {
    const merged = await buildMergedDocument()
    const body = bodySchemaOf(operationAt(merged, row))

    // Descriptions are documentation; compare the constraints only.
    expect(
      JSON.parse(JSON.stringify(body, (key, value) => (key === 'description' ? undefined : value))),
    ).toEqual(schema)
  })

  it('requires an e-mail address in the path of row 3, by the rule the server checks', async () => {
    const merged = await buildMergedDocument()
    const email = parametersOf(merged, operationAt(merged, 3)).find(({ name }) => name === 'email')

    expect(at(email, 'schema')).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: EMAIL_MAX_LENGTH,
      pattern: EMAIL.source,
    })
    expect(at(email, 'schema', 'format')).toBeUndefined()
  })

  // Every operation can be asked for a gateway's answers (fault rules, `Prefer: code=`).
  const gateway = ['429', '502', '503', '504']

  it.each([
    { row: 1, statuses: ['200', '400', '401', '413', '415', ...gateway] },
    { row: 2, statuses: ['200', '400', '401', '404', ...gateway] },
    { row: 3, statuses: ['201', '400', '401', '403', '404', '409', '413', '415', ...gateway] },
    { row: 4, statuses: ['201', '400', '401', '404', '409', '413', '415', ...gateway] },
    { row: 5, statuses: ['201', '400', '401', '403', '404', '409', '413', '415', ...gateway] },
    { row: 6, statuses: ['201', '400', '401', '403', '404', '409', '413', '415', ...gateway] },
    { row: 7, statuses: ['201', '400', '401', '404', '409', '413', '415', ...gateway] },
    { row: 8, statuses: ['201', '400', '401', '403', '404', '409', '413', '415', ...gateway] },
    { row: 9, statuses: ['201', '400', '401', '403', '404', '409', '413', '415', ...gateway] },
    { row: 10, statuses: ['201', '400', '401', '403', '404', '409', '413', '415', ...gateway] },
    { row: 11, statuses: ['201', '400', '401', '413', '415', ...gateway] },
    { row: 12, statuses: ['201', '400', '401', '404', '409', '413', '415', ...gateway] },
    { row: 13, statuses: ['201', '400', '404', '409', '413', '415', ...gateway] },
  ])('documents the statuses of row $row', async ({ row, statuses }) => {
    const merged = await buildMergedDocument()
    const operation = operationAt(merged, row)

    expect(statusesOf(operation).sort()).toEqual(statuses.sort())
    for (const status of statuses.filter((candidate) => /^[45]/.test(candidate))) {
      const response = deref(merged, at(operation, 'responses', status))
      expect(at(response, 'content', 'application/json', 'schema'), `${row} ${status}`).toEqual({
        $ref: '#/components/schemas/ApiErrorResponseDto',
      })
    }
  })

  it('answers 201 with an acknowledgement on rows 10, 11 and 13, and sets the cookie on 11', async () => {
    const merged = await buildMergedDocument()

    for (const row of [10, 11, 13]) {
      expect(
        at(operationAt(merged, row), 'responses', '201', 'content', 'application/json', 'schema'),
      ).toEqual({
        $ref: '#/components/schemas/Acknowledgement',
      })
    }
    expect(
      at(operationAt(merged, 11), 'responses', '201', 'headers', 'Set-Cookie', 'schema'),
    ).toEqual({
      type: 'string',
    })
  })

  it('declares in x-sandbox-auth the auth rule each operation enforces, with its security', async () => {
    const merged = await buildMergedDocument()

    // The operations are the source of their auth rule; the overlay must agree with them.
    // The control API (`/__sandbox`) is the sandbox's own, not an operation of the reference.
    const reference = operationsOf(merged).filter(({ path }) => !path.startsWith('/__sandbox'))
    expect(reference.map(({ operation }) => operation.operationId).sort()).toEqual(
      operations.map((operation) => operation.id).sort(),
    )
    for (const operation of operations) {
      const documented = at(merged.paths, operation.path, operation.method.toLowerCase())
      if (!isRecord(documented)) throw new Error(`${operation.id} is not in the merged document`)
      expect(operationAt(merged, operation.row)).toBe(documented)
      expect({
        id: operation.id,
        auth: documented['x-sandbox-auth'],
        security: documented.security,
      }).toEqual({
        id: operation.id,
        auth: operation.auth,
        security: { public: [], user: [{ bearerAuth: [] }], admin: [{ bearerAuth: ['admin'] }] }[
          operation.auth
        ],
      })
    }
  })

  it('accepts the x-sandbox-session header on every operation', async () => {
    const merged = await buildMergedDocument()

    for (const { method, path, operation } of operationsOf(merged)) {
      const names = parametersOf(merged, operation).map(({ name }) => name)
      expect(names, `${method} ${path}`).toContain('x-sandbox-session')
    }
  })

  it('closes the error codes and makes the account status fields required', async () => {
    const merged = await buildMergedDocument()
    const error = at(merged, 'components', 'schemas', 'ApiErrorResponseDto', 'properties')
    const status = at(merged, 'components', 'schemas', 'PayprovAccountStatus')

    expect(at(error, 'code', 'enum')).toContain('PAYLOAD_TOO_LARGE')
    expect(at(error, 'details', 'type')).toBe('array')
    expect(at(error, 'details', 'oneOf')).toBeUndefined()
    expect(at(status, 'required')).toEqual([
      'payouts_enabled',
      'charges_enabled',
      'disabled_reason',
      'requirements',
    ])
    expect(at(status, 'properties', 'requirements', 'properties', 'past_due', 'items')).toEqual({
      type: 'string',
    })
  })

  it('leaves the published document untouched', async () => {
    await buildMergedDocument()
    const published = await loadPublishedDocument()

    expect(dryRunOf(published, operationAt(published, 3))).toMatchObject({ required: true })
    expect(bodySchemaOf(operationAt(published, 3))).toEqual({ type: 'object' })
  })
})
