import { describe, expect, it } from 'vitest'
import { createSandbox } from '../mocks/sandbox.ts'
import { signIn } from '../mocks/sandbox-client/sandbox-client.ts'
import { MERGED_JSON_PATH } from '../scripts/spec/generated-files.ts'
import { renderAppDocument } from '../scripts/spec/write-app-document.ts'
import type { OpenAPIDocument } from './app-document.ts'
import { getRecordedExample, recordedRequestUrl } from './examples/index.ts'

const app = await renderAppDocument()
const merged = (await import(MERGED_JSON_PATH, { with: { type: 'json' } }))
  .default as OpenAPIDocument

interface Operation {
  operationId: string
  parameters?: Array<{ name?: string; in?: string; required?: boolean; $ref?: string }>
  requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, unknown> }> }
  responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }>
  security?: unknown
}

const operationsOf = (document: OpenAPIDocument) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      path,
      method,
      operation: operation as Operation,
    })),
  )

describe('the app document (platform-sandbox/openapi.app.json)', () => {
  it("holds the reference's 13 operations and none of the control API", () => {
    const ids = operationsOf(app).map(({ operation }) => operation.operationId)
    expect(ids).toHaveLength(13)
    const apiOfMerged = operationsOf(merged).filter(({ path }) => !path.startsWith('/__sandbox'))
    expect(ids).toEqual(apiOfMerged.map(({ operation }) => operation.operationId))
    expect(Object.keys(app.paths).filter((path) => path.includes('__sandbox'))).toEqual([])
  })

  it("keeps the sandbox's decisions: bodies, error statuses and auth as in the merged document", () => {
    for (const { path, method, operation } of operationsOf(app)) {
      const twin = merged.paths[path]?.[method] as Operation
      expect(Object.keys(operation.responses), operation.operationId).toEqual(
        Object.keys(twin.responses),
      )
      expect(operation.security, operation.operationId).toEqual(twin.security)
      expect(operation.requestBody?.content['application/json']?.schema).toEqual(
        twin.requestBody?.content['application/json']?.schema,
      )
    }
    const decline = app.paths['/bookings/{bookingId}/decline']?.post as Operation
    expect(Object.keys(decline.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      // What a gateway in front of the real backend answers too.
      '429',
      '502',
      '503',
      '504',
    ])
  })

  it('has no sandbox-only header, and dryRun is never required', () => {
    const text = JSON.stringify(app)
    for (const word of [
      'x-sandbox-session',
      'sandbox_session',
      'x-sandbox-fault',
      'Prefer',
      '__sandbox',
    ]) {
      expect(text.includes(word), word).toBe(false)
    }
    const dryRuns = operationsOf(app).flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((parameter) => parameter.name === 'dryRun'),
    )
    expect(dryRuns).toHaveLength(9)
    expect(dryRuns.every((parameter) => parameter.required === false)).toBe(true)
    for (const { operation } of operationsOf(app)) {
      const names = (operation.parameters ?? []).map(
        (parameter) => parameter.name ?? parameter.$ref,
      )
      expect(names.every((name) => name !== undefined && !/^(x-sandbox|prefer)/i.test(name))).toBe(
        true,
      )
    }
  })

  it('resolves every $ref inside itself', () => {
    const refs = JSON.stringify(app).match(/"\$ref":"[^"]+"/g) ?? []
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/')
      const target = pointer.reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        app,
      )
      expect(target, ref).toBeDefined()
    }
  })

  it('gives only request examples the sandbox accepts, each documented with its answer', async () => {
    const sent: string[] = []
    for (const { operation } of operationsOf(app)) {
      const examples = operation.requestBody?.content['application/json']?.examples ?? {}
      for (const name of Object.keys(examples)) {
        const recorded = getRecordedExample(operation.operationId, name)
        expect(examples[name]).toMatchObject({ value: recorded.request.body })
        const sandbox = createSandbox()
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        if (recorded.request.as) {
          headers.authorization = `Bearer ${await signIn(sandbox, recorded.request.as as 'host')}`
        }
        const answer = await sandbox.handle({
          method: recorded.method,
          url: recordedRequestUrl(recorded),
          headers,
          body: JSON.stringify(recorded.request.body ?? {}),
        })
        expect(answer.status, `${operation.operationId} ${name}`).toBeGreaterThanOrEqual(200)
        expect(answer.status, `${operation.operationId} ${name}`).toBeLessThan(300)
        const documented = operation.responses[String(answer.status)]?.content?.['application/json']
        expect(documented?.examples?.[name], `${operation.operationId} ${name}`).toBeDefined()
        sent.push(name)
      }
    }
    // Every operation with a request body has at least one example.
    expect(sent.length).toBeGreaterThanOrEqual(11)
  })
})
