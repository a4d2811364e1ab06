import { readdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { personas } from '../../fixtures/personas.ts'
import { buildMergedDocument, loadPublishedDocument } from '../../scripts/spec/build-document.ts'
import { createExampleActions } from '../../scripts/spec/examples-overlay.ts'
import {
  recordedExampleFileSchema,
  recordedExampleFiles,
  recordedExamples,
  recordedRequestUrl,
} from './index.ts'

const EXAMPLES_DIR = dirname(fileURLToPath(import.meta.url))

type JsonObject = Record<string, unknown>

function at(value: unknown, ...keys: string[]): unknown {
  let current = value
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as JsonObject)[key]
  }
  return current
}

describe('recorded examples', () => {
  it('are each of the shape recordedExampleFileSchema describes', () => {
    for (const file of recordedExampleFiles) {
      const parsed = recordedExampleFileSchema.safeParse(file)
      expect(parsed.error?.issues ?? [], file.operationId).toEqual([])
    }
  })

  it('lists every example file of spec/examples/ in its index', async () => {
    const files = (await readdir(EXAMPLES_DIR)).filter((name) => name.endsWith('.json')).sort()

    expect(recordedExampleFiles.map((file) => `${file.operationId}.json`).sort()).toEqual(files)
  })

  it('has one file per operation of the published contract, at its method and path', async () => {
    const published = await loadPublishedDocument()
    const operations = Object.entries(published.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        operationId: at(operation, 'operationId'),
        method: method.toUpperCase(),
        path,
      })),
    )

    expect(
      recordedExampleFiles.map(({ operationId, method, path }) => ({ operationId, method, path })),
    ).toEqual(operations)
  })

  it('names only known personas', () => {
    const keys = personas.map((persona) => persona.key as string)

    for (const example of recordedExamples.filter((candidate) => candidate.request.as)) {
      expect(keys, `${example.operationId}/${example.name}`).toContain(example.request.as)
    }
  })

  it('has a success example for every operation', () => {
    for (const file of recordedExampleFiles) {
      const statuses = Object.values(file.examples).map((example) => example.response.status)
      expect(
        statuses.some((status) => status >= 200 && status < 300),
        file.operationId,
      ).toBe(true)
    }
  })

  it('builds request URLs with encoded path parameters and the query', () => {
    expect(
      recordedRequestUrl({
        path: '/admin/ambassadors/applications/{email}/status',
        request: { params: { email: 'a@b.test' }, query: { dryRun: 'true' } },
      }),
    ).toBe('/admin/ambassadors/applications/a%40b.test/status?dryRun=true')
  })
})

describe('recorded examples in the contracts', () => {
  it('puts each example into the merged document under its name, request and response', async () => {
    const merged = await buildMergedDocument()

    for (const example of recordedExamples) {
      const operation = at(merged.paths, example.path, example.method.toLowerCase())
      const label = `${example.operationId}/${example.name}`
      if (example.request.body !== undefined) {
        expect(
          at(operation, 'requestBody', 'content', 'application/json', 'examples', example.name),
          label,
        ).toEqual({ summary: example.summary, value: example.request.body })
      }
      expect(
        at(
          operation,
          'responses',
          String(example.response.status),
          'content',
          'application/json',
          'examples',
          example.name,
        ),
        label,
      ).toEqual({ summary: example.summary, value: example.response.body })
    }
  })

  it('keeps the shared error schema when it inlines a shared response', async () => {
    const merged = await buildMergedDocument()
    const conflict = at(merged.paths, '/bookings/{bookingId}/decline', 'post', 'responses', '409')

    expect(at(conflict, '$ref')).toBeUndefined()
    expect(at(conflict, 'description')).toBe('The booking is not pending.')
    expect(at(conflict, 'content', 'application/json', 'schema')).toEqual({
      $ref: '#/components/schemas/ApiErrorResponseDto',
    })
  })

  it('leaves the published contract with the reference’s own examples only', async () => {
    const published = await loadPublishedDocument()
    const names = JSON.stringify(published)

    for (const example of recordedExamples) {
      expect(names, example.name).not.toContain(`"${example.name}":{"summary"`)
    }
    expect(
      Object.keys(
        at(
          published.paths,
          '/auth/refresh',
          'post',
          'requestBody',
          'content',
          'application/json',
          'examples',
        ) as JsonObject,
      ),
    ).toEqual(['refreshToken'])
  })

  it('refuses an example for a status the operation does not document', async () => {
    const published = await loadPublishedDocument()
    const example = recordedExamples.find((candidate) => candidate.operationId === 'followUser')!

    expect(() =>
      createExampleActions(published, [{ ...example, response: { status: 418, body: {} } }]),
    ).toThrow('Failed to add example followUser/followGuest: the operation documents no JSON 418')
  })

  it('refuses an example name the document already uses', async () => {
    const published = await loadPublishedDocument()
    const example = recordedExamples.find((candidate) => candidate.operationId === 'refreshToken')!

    expect(() =>
      createExampleActions(published, [
        { ...example, name: 'validationFailed', response: { status: 400, body: {} } },
      ]),
    ).toThrow('already has an example "validationFailed"')
  })
})
