/**
 * Portman and newman, as a team that generates its API tests from the app document would run
 * them: Portman generates a Postman collection from `openapi.app.json` with its default
 * contract tests and no overwrites, and newman sends each of its requests to a sandbox server
 * started here, after a reset, with the access token of the persona the operation's
 * `x-sandbox-persona` names (none for a public operation). Every assertion must pass.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PersonaKey } from '../../fixtures/personas.ts'
import { PERSONA_FIELD } from '../../scripts/spec/operation-examples.ts'
import { renderAppDocument } from '../../scripts/spec/write-app-document.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'
import {
  generateCollection,
  type PostmanCollection,
  type PostmanItem,
  requestsOf,
  runRequest,
} from './portman.ts'

interface DocumentedOperation {
  operationId: string
  security?: unknown[]
  [PERSONA_FIELD]?: string
}

const app = await renderAppDocument()
let folder: string
let server: TestServer
let collection: PostmanCollection

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'platform-sandbox-portman-'))
  const documentPath = join(folder, 'openapi.app.json')
  await writeFile(documentPath, JSON.stringify(app, null, 2))
  ;[server, collection] = await Promise.all([
    startTestServer(),
    generateCollection(documentPath, folder),
  ])
}, 120_000)

afterAll(async () => {
  await server?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

/** The operation of the app document a request of the collection calls. */
function operationOf(item: PostmanItem): DocumentedOperation {
  const segments = item.request?.url.path ?? []
  const template = `/${segments.map((segment) => segment.replace(/^:(\w+)$/, '{$1}')).join('/')}`
  const operation = app.paths[template]?.[String(item.request?.method).toLowerCase()]
  if (!operation)
    throw new Error(`Failed to find ${item.request?.method} ${template} in the app document`)
  return operation as DocumentedOperation
}

describe('the Postman collection Portman generates from the app document', () => {
  it('has one request per operation, with the default contract tests', () => {
    const requests = requestsOf(collection.item)
    expect(requests.map((item) => operationOf(item).operationId).sort()).toEqual(
      Object.values(app.paths)
        .flatMap((item) =>
          Object.values(item).map((operation) => (operation as DocumentedOperation).operationId),
        )
        .sort(),
    )
    for (const item of requests) {
      const tests = (item.event ?? []).filter((event) => event.listen === 'test')
      const script = tests.flatMap((event) => event.script.exec).join('\n')
      for (const check of [
        'Status code is 2xx',
        'Content-Type is',
        'Response has JSON Body',
        'Schema is valid',
      ]) {
        expect(script, `${item.name}: ${check}`).toContain(check)
      }
    }
  })

  it('passes every assertion, each request after a reset and with its persona’s token', async () => {
    const results: Array<{
      operationId: string
      persona: string
      status: number | undefined
      passed: number
      failures: string[]
    }> = []
    for (const item of requestsOf(collection.item)) {
      const operation = operationOf(item)
      const persona = operation[PERSONA_FIELD]
      const needsToken = (operation.security ?? []).length > 0
      expect(
        Boolean(persona),
        `${operation.operationId} names a persona when it needs a token`,
      ).toBe(needsToken)
      const reset = await server.request('/__sandbox/reset', { method: 'POST', body: {} })
      expect(reset.status).toBe(200)
      const variables: Record<string, string> = { baseUrl: server.url }
      if (persona) variables.bearerToken = await server.tokenFor(persona as PersonaKey)

      const result = await runRequest(collection, item.id, variables)

      results.push({
        operationId: operation.operationId,
        persona: persona ?? 'none',
        status: result.status,
        passed: result.assertions.filter((assertion) => !assertion.error).length,
        failures: [
          ...result.failures,
          ...result.assertions
            .filter((assertion) => assertion.error)
            .map((assertion) => assertion.assertion),
        ],
      })
    }
    const failed = results.filter((result) => result.failures.length > 0)
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([])
    for (const result of results) {
      // Status 2xx, JSON content type, JSON body, schema: at least Portman's four checks.
      expect(result.passed, result.operationId).toBeGreaterThanOrEqual(4)
      expect(result.status, result.operationId).toBeGreaterThanOrEqual(200)
      expect(result.status, result.operationId).toBeLessThan(300)
    }
    expect(results).toHaveLength(13)
  }, 120_000)
})
