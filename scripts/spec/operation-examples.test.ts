/**
 * Roles and examples are machine-readable in the merged and the app document: `security` says
 * who may call each operation (`[]` public, `bearerAuth: []` any signed-in user,
 * `bearerAuth: [admin]` the admin) as `x-sandbox-auth` and the operation table do, and the
 * documented path parameter examples succeed for the persona `x-sandbox-persona` names.
 */
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personas } from '../../fixtures/personas.ts'
import { operations } from '../../mocks/operations/table.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { signIn } from '../../mocks/sandbox-client/sandbox-client.ts'
import type { OpenAPIDocument } from '../../spec/app-document.ts'
import { MERGED_JSON_PATH } from './generated-files.ts'
import { PERSONA_FIELD } from './operation-examples.ts'
import { renderAppDocument } from './write-app-document.ts'

const app = await renderAppDocument()
const merged = (await import(MERGED_JSON_PATH, { with: { type: 'json' } }))
  .default as OpenAPIDocument

interface Parameter {
  name: string
  in: string
  example?: unknown
}

interface DocumentedOperation {
  operationId: string
  security?: unknown
  'x-sandbox-auth'?: string
  'x-sandbox-persona'?: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> }
}

const SECURITY = {
  public: [],
  user: [{ bearerAuth: [] }],
  admin: [{ bearerAuth: ['admin'] }],
}

function operationsOf(document: OpenAPIDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operation: operation as DocumentedOperation,
    })),
  )
}

/** Every string the fixtures name: anchor ids, persona ids and e-mail addresses. */
function fixtureValues(): Set<string> {
  const values = new Set<string>()
  const collect = (value: unknown) => {
    if (typeof value === 'string') values.add(value)
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect)
  }
  collect(anchors)
  for (const persona of personas) collect([persona.publicId, persona.email])
  return values
}

const documents = [
  ['merged', merged],
  ['app', app],
] as const

describe.each(documents)('the %s document', (_, document) => {
  const platform = operationsOf(document).filter(({ path }) => !path.startsWith('/__sandbox'))

  it('says in security who may call each operation, as x-sandbox-auth and the operation do', () => {
    expect(platform).toHaveLength(operations.length)
    for (const { operation } of operationsOf(document)) {
      const auth = operation['x-sandbox-auth'] as keyof typeof SECURITY
      expect(Object.keys(SECURITY), operation.operationId).toContain(auth)
      expect(operation.security, operation.operationId).toEqual(SECURITY[auth])
    }
    for (const { operation } of platform) {
      const table = operations.find((candidate) => candidate.id === operation.operationId)
      expect(operation['x-sandbox-auth'], operation.operationId).toBe(table?.auth)
    }
    const admin = platform.filter(({ operation }) => operation['x-sandbox-auth'] === 'admin')
    expect(admin.map(({ operation }) => operation.operationId)).toEqual([
      'updateAmbassadorApplicationStatus',
      'approveReview',
      'rejectReview',
    ])
  })

  it('names the persona of the examples of every operation that needs a token, one allowed to call it', () => {
    for (const { operation } of platform) {
      const persona = personas.find((candidate) => candidate.key === operation[PERSONA_FIELD])
      if (operation['x-sandbox-auth'] === 'public') {
        expect(operation[PERSONA_FIELD], operation.operationId).toBeUndefined()
        continue
      }
      expect(persona, operation.operationId).toBeDefined()
      if (operation['x-sandbox-auth'] === 'admin') {
        expect(persona?.roles, operation.operationId).toContain('admin')
      }
    }
  })

  it('gives every path parameter an example, an id of the fixtures', () => {
    const known = fixtureValues()
    const pathParameters = platform.flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === 'path'),
    )
    expect(pathParameters).toHaveLength(8)
    for (const parameter of pathParameters) {
      expect(known, parameter.name).toContain(parameter.example)
    }
  })
})

describe('the documented examples of the app document', () => {
  it.each(
    operationsOf(app).map(
      ({ path, method, operation }) => [operation.operationId, path, method, operation] as const,
    ),
  )(
    '%s succeeds with its path examples, its first body example and its persona',
    async (_, path, method, operation) => {
      const sandbox = createSandbox()
      const parameters = operation.parameters ?? []
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const example = parameters.find((parameter) => parameter.name === name)?.example
        return encodeURIComponent(String(example))
      })
      const takesDryRun = parameters.some((parameter) => parameter.name === 'dryRun')
      const examples = operation.requestBody?.content['application/json']?.examples ?? {}
      const body = Object.values(examples)[0]?.value
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      const persona = operation[PERSONA_FIELD]
      if (persona) headers.authorization = `Bearer ${await signIn(sandbox, persona as 'host')}`
      const writes = (await sandbox.store()).writeCount()

      const answer = await sandbox.handle({
        method,
        url: takesDryRun ? `${url}?dryRun=true` : url,
        headers,
        body: method === 'GET' ? null : JSON.stringify(body ?? {}),
      })

      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200)
      expect(answer.status).toBeLessThan(300)
      if (takesDryRun) expect((await sandbox.store()).writeCount()).toBe(writes)
    },
  )
})
