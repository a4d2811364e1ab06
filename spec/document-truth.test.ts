/**
 * The merged document says what the sandbox does: the first example of every request body
 * is one the sandbox accepts (a suite generated from the document starts green).
 */
import { describe, expect, it } from 'vitest'
import { buildMergedDocument } from '../scripts/spec/build-document.ts'
import { recordedExamples } from './examples/index.ts'

const merged = await buildMergedDocument()

type Operation = {
  operationId: string
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }
}

const operations = Object.values(merged.paths).flatMap((item) =>
  Object.values(item as Record<string, Operation>).filter((operation) => operation.operationId),
)

describe('the first request example of every operation', () => {
  const withBodies = operations.filter(
    (operation) => operation.requestBody?.content?.['application/json']?.examples,
  )

  it('exists for the operations of the reference that take a body', () => {
    expect(withBodies.length).toBeGreaterThanOrEqual(12)
  })

  it.each(withBodies.map((operation) => [operation.operationId, operation] as const))(
    '%s: is the body of a recorded example the sandbox answers with a success',
    (operationId, operation) => {
      const examples = operation.requestBody!.content!['application/json']!.examples!
      const [first] = Object.values(examples)
      const accepted = recordedExamples.filter(
        (example) =>
          example.operationId === operationId &&
          example.response.status < 300 &&
          JSON.stringify(example.request.body) === JSON.stringify(first!.value),
      )
      expect(accepted.map((example) => example.name)).not.toEqual([])
    },
  )
})
