/**
 * One shape for each field (issue 30, item 3): what the sandbox checks of a request, the app
 * document's schemas say, and nothing more.
 *
 * - The document's patterns are the server's (`mocks/model/shapes.ts`).
 * - Requests generated from each operation's schemas (path parameters, `dryRun`, body) are
 *   never refused with a 400 for their shape; the only 400 such a request may get is one of the
 *   operation's business rules, each documented on the operation with its own example.
 * - Requests with any values at all (near misses, wrong types, other characters) that the
 *   sandbox does not refuse with a 400 validate against the schemas.
 *
 * Every operation is covered, those without `dryRun` too (checkout, sign-in completion,
 * refund): each request runs on a sandbox reset to its starting scenario.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import type { SandboxResponse } from '../mocks/core/index.ts'
import { EMAIL, EMAIL_MAX_LENGTH, NOT_BLANK, REFRESH_TOKEN } from '../mocks/model/shapes.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { renderAppDocument } from '../scripts/spec/write-app-document.ts'
import type { OpenAPIDocument } from './app-document.ts'

const SEED = Number(process.env.SHAPES_SEED ?? 20261126)
const RUNS = Number(process.env.SHAPES_RUNS ?? 60)

type Schema = Record<string, unknown>
interface Parameter {
  name: string
  in: string
  required?: boolean
  schema: Schema
}
interface AppOperation {
  operationId: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }
  responses: Record<string, { content?: Record<string, { examples?: Record<string, any> }> }>
  security?: unknown
  'x-sandbox-auth'?: 'public' | 'user' | 'admin'
}

const app = await renderAppDocument()

/**
 * The business rules that refuse a schema-valid request with a 400, by operation: the name of
 * the example that documents each on the operation's 400 answer.
 */
const BUSINESS_RULES: Record<string, readonly string[]> = {
  followUser: ['followSelf'],
  testRefundWebhook: ['amountAboveBooking'],
}

/** Ids of the fixtures, so that generated requests reach records as well as miss them. */
const knownIds = [
  ...Object.values(anchors.applications),
  ...Object.values(anchors.venues),
  ...Object.values(anchors.bookings),
  ...Object.values(anchors.contracts),
  ...Object.values(anchors.notifications),
  ...personas.map((persona) => persona.publicId),
  ...personas.flatMap((persona) => [persona.refreshToken, persona.idpCode]),
]

function deref(document: OpenAPIDocument, schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema
  const name = schema.$ref.replace('#/components/schemas/', '')
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>
  return schemas[name]!
}

function codePoints(text: string): number {
  return [...text].length
}

/** Keywords the generator understands; any other keyword in a request schema fails the test. */
const KNOWN_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'default',
  'description',
  'exclusiveMinimum',
])

/** Strings of any characters: plain, any code point, and runs near a length limit. */
function anyString(maxLength: number | undefined): fc.Arbitrary<string> {
  const kinds: fc.Arbitrary<string>[] = [
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(...knownIds),
  ]
  if (maxLength !== undefined) {
    // The limit counts code points: an astral character is one, as JSON Schema counts it.
    kinds.push(
      fc
        .array(fc.constantFrom('x', '🙂', ' ', 'é'), {
          minLength: Math.max(0, maxLength - 2),
          maxLength: maxLength + 2,
        })
        .map((units) => units.join('')),
    )
  }
  return fc.oneof(...kinds)
}

/** Values of `schema` (a fast-check arbitrary), for the keywords request schemas use. */
function valuesOf(document: OpenAPIDocument, raw: Schema): fc.Arbitrary<unknown> {
  const schema = deref(document, raw)
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(keyword)) throw new Error(`No generator for "${keyword}"`)
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  if (schema.type === 'object') {
    if (schema.additionalProperties !== false) throw new Error('An open object schema')
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    return fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, valuesOf(document, property)]),
      ),
      { requiredKeys: (schema.required ?? []) as string[] },
    )
  }
  if (schema.type === 'string') {
    const min = (schema.minLength as number | undefined) ?? 0
    const max = schema.maxLength as number | undefined
    const base =
      typeof schema.pattern === 'string'
        ? fc.oneof(
            fc.stringMatching(new RegExp(schema.pattern, 'u')),
            anyString(max).filter((value) => new RegExp(schema.pattern as string, 'u').test(value)),
          )
        : anyString(max)
    return base.filter((value) => {
      const length = codePoints(value)
      return length >= min && (max === undefined || length <= max)
    })
  }
  if (schema.type === 'number') {
    const above = schema.exclusiveMinimum as number
    return fc.oneof(
      fc.double({ min: above, minExcluded: true, max: 1e9, noNaN: true }),
      fc.integer({ min: above + 1, max: 10_000 }),
    )
  }
  throw new Error(`No generator for type "${String(schema.type)}"`)
}

/** Any JSON value, and values close to what a field takes. */
const looseValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  anyString(undefined),
  fc.constantFrom('', ' ', 'a@b', '0@com', 'a+b{x}@example.com', 'a.b', '.', 'x'.repeat(1001)),
  fc.double(),
)

interface Operation {
  path: string
  operation: AppOperation
  /** Schema-valid requests: path parameters, query and body. */
  valid: fc.Arbitrary<Request>
  /** Requests with any values, for the fields the operation takes and others. */
  loose: fc.Arbitrary<Request>
  check: { body?: ValidateFunction; params: Map<string, ValidateFunction> }
}

interface Request {
  params: Record<string, string>
  dryRun: string | undefined
  body: unknown
  persona: string | undefined
}

const ajv = new Ajv2020({ strict: false, allErrors: true })

function personasFor(operation: AppOperation): (string | undefined)[] {
  if (operation['x-sandbox-auth'] === 'admin') return ['admin']
  if (operation['x-sandbox-auth'] === 'user') return ['host', 'guest']
  return [undefined]
}

function describeOperations(document: OpenAPIDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.values(item as Record<string, AppOperation>).map((operation) => {
      const pathParameters = (operation.parameters ?? []).filter((p) => p.in === 'path')
      const dryRun = (operation.parameters ?? []).find((p) => p.name === 'dryRun')
      const bodySchema = operation.requestBody?.content['application/json']?.schema
      const idsOrValues = (schema: Schema) =>
        fc.oneof(
          valuesOf(document, schema),
          fc.constantFrom(...knownIds).filter((id) => ajv.validate(schema, id)),
        )
      const params = fc.record(
        Object.fromEntries(pathParameters.map((p) => [p.name, idsOrValues(p.schema)])),
      ) as fc.Arbitrary<Record<string, string>>
      const query = dryRun
        ? fc.option(valuesOf(document, dryRun.schema) as fc.Arbitrary<string>, { nil: undefined })
        : fc.constant(undefined)
      const persona = fc.constantFrom(...personasFor(operation))
      const validBody = bodySchema ? valuesOf(document, bodySchema) : fc.constant(undefined)
      const bodyFields = Object.keys(
        (deref(document, bodySchema ?? {}).properties ?? {}) as Record<string, unknown>,
      )
      const looseBody = fc.oneof(
        validBody,
        fc.dictionary(fc.constantFrom(...bodyFields, 'extra'), looseValue, { maxKeys: 3 }),
        fc.record(Object.fromEntries(bodyFields.map((field) => [field, looseValue]))),
      )
      const looseParams = fc.record(
        Object.fromEntries(
          pathParameters.map((p) => [
            p.name,
            fc.oneof(
              idsOrValues(p.schema),
              anyString(undefined).filter((s) => s.length > 0),
            ),
          ]),
        ),
      ) as fc.Arbitrary<Record<string, string>>
      const looseQuery = dryRun
        ? fc.option(fc.oneof(fc.constantFrom('true', 'false'), anyString(undefined)), {
            nil: undefined,
          })
        : fc.constant(undefined)
      return {
        path,
        operation,
        valid: fc.record({ params, dryRun: query, body: validBody, persona }),
        loose: fc.record({ params: looseParams, dryRun: looseQuery, body: looseBody, persona }),
        check: {
          ...(bodySchema ? { body: ajv.compile(deref(document, bodySchema)) } : {}),
          params: new Map(pathParameters.map((p) => [p.name, ajv.compile(p.schema)])),
        },
      }
    }),
  )
}

const operations = describeOperations(app)
const sandbox = createSandbox()
const tokens = new Map<string, string>()

beforeAll(async () => {
  for (const persona of personas) {
    const answer = await sandbox.handle({
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: persona.refreshToken }),
    })
    tokens.set(persona.key, (answer.body as { accessToken: string }).accessToken)
  }
})

async function send(operation: Operation, request: Request): Promise<SandboxResponse> {
  await sandbox.resetAll()
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(request.params[name]!),
  )
  const query = request.dryRun === undefined ? '' : `?dryRun=${encodeURIComponent(request.dryRun)}`
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (request.persona !== undefined) {
    headers.authorization = `Bearer ${tokens.get(request.persona)}`
  }
  const method = path === '/payprov/account-status' ? 'GET' : 'POST'
  return sandbox.handle({
    method,
    url: `${path}${query}`,
    headers,
    body: method === 'GET' || request.body === undefined ? '' : JSON.stringify(request.body),
  })
}

/** A number-free form of a detail, so that "(240)" and "(180)" are the same rule. */
const rule = (detail: string) => detail.replace(/\d+(\.\d+)?/g, 'N')

function businessRuleDetails(operation: AppOperation): Set<string> {
  const examples = operation.responses['400']?.content?.['application/json']?.examples ?? {}
  return new Set(
    (BUSINESS_RULES[operation.operationId] ?? []).flatMap((name) => {
      const details = examples[name]?.value?.details as string[] | undefined
      if (!details) throw new Error(`${operation.operationId}: no documented example "${name}"`)
      return details.map(rule)
    }),
  )
}

describe('the document and the server share each shape', () => {
  const schemaAt = (path: string, pick: (operation: AppOperation) => Schema) =>
    deref(app, pick(app.paths[path]!.post as AppOperation))
  const bodyProperty = (path: string, name: string) =>
    (
      schemaAt(path, (o) => o.requestBody!.content['application/json']!.schema)
        .properties as Record<string, Schema>
    )[name]!

  it('says an e-mail address by the pattern the server checks, on both e-mail fields', () => {
    const param = (
      app.paths['/admin/ambassadors/applications/{email}/status']!.post as AppOperation
    ).parameters!.find((p) => p.name === 'email')!.schema
    const body = bodyProperty('/venues/{listingId}/send-claim-email', 'email')
    for (const schema of [param, body]) {
      expect(schema).toMatchObject({ pattern: EMAIL.source, maxLength: EMAIL_MAX_LENGTH })
      expect(schema.format).toBeUndefined()
    }
  })

  it('says the refresh token and the signer’s name by the patterns the server checks', () => {
    expect(bodyProperty('/auth/refresh', 'refreshToken').pattern).toBe(REFRESH_TOKEN.source)
    expect(bodyProperty('/contracts/{contractId}/sign', 'fullName').pattern).toBe(NOT_BLANK.source)
  })

  it('documents each business rule that refuses a schema-valid request with its example', () => {
    for (const [operationId, names] of Object.entries(BUSINESS_RULES)) {
      const operation = operations.find((o) => o.operation.operationId === operationId)!
      expect(businessRuleDetails(operation.operation).size, operationId).toBe(names.length)
    }
  })
})

describe.each(operations.map((operation) => [operation.operation.operationId, operation] as const))(
  '%s',
  (operationId, operation) => {
    const rules = businessRuleDetails(operation.operation)

    it('refuses no request its schemas accept with a 400 for its shape', async () => {
      await fc.assert(
        fc.asyncProperty(operation.valid, async (request) => {
          const answer = await send(operation, request)
          expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500)
          if (answer.status !== 400) return
          const details = ((answer.body as { details?: string[] }).details ?? []).map(rule)
          expect(
            details.filter((detail) => !rules.has(detail)),
            `${operationId} refused ${JSON.stringify(request)}`,
          ).toEqual([])
        }),
        { seed: SEED, numRuns: RUNS },
      )
    })

    it('accepts only requests its schemas accept', async () => {
      await fc.assert(
        fc.asyncProperty(operation.loose, async (request) => {
          const answer = await send(operation, request)
          expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500)
          // Refused: for its shape, or (an empty path segment) matched by no route at all.
          const message = (answer.body as { message?: string }).message ?? ''
          if (answer.status === 400 || message.startsWith('Cannot ')) return
          const problems: string[] = []
          if (operation.check.body && !operation.check.body(request.body ?? {})) {
            problems.push(`body: ${ajv.errorsText(operation.check.body.errors)}`)
          }
          for (const [name, validate] of operation.check.params) {
            if (!validate(request.params[name])) problems.push(`${name}: ${ajv.errorsText()}`)
          }
          if (request.dryRun !== undefined && !['true', 'false'].includes(request.dryRun)) {
            problems.push(`dryRun: ${request.dryRun}`)
          }
          expect(
            problems,
            `${operationId} accepted ${JSON.stringify(request)} (${answer.status})`,
          ).toEqual([])
        }),
        { seed: SEED, numRuns: RUNS * 2 },
      )
    })
  },
)
