import { describe, expect, it } from 'vitest'
import { buildMergedDocument } from '../../scripts/spec/build-document.ts'
import { recordedExamples } from '../examples/index.ts'
import { conformanceCases } from './index.ts'

type JsonObject = Record<string, unknown>

describe('the conformance case list', () => {
  it('names every case once', () => {
    const names = conformanceCases.map((testCase) => testCase.name)

    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([])
  })

  it('replays every recorded example', () => {
    const replayed = new Set(conformanceCases.map((testCase) => testCase.example))

    expect(
      recordedExamples
        .map((example) => `${example.operationId}/${example.name}`)
        .filter((key) => !replayed.has(key)),
    ).toEqual([])
  })

  it('covers the success and every error status of every operation of the merged contract', async () => {
    const merged = await buildMergedDocument()
    const missing: string[] = []
    for (const item of Object.values(merged.paths)) {
      for (const operation of Object.values(item) as JsonObject[]) {
        const operationId = String(operation.operationId)
        if (!operation['x-reference-row']) continue // the control API is not in the list
        for (const status of Object.keys(operation.responses as JsonObject)) {
          const covered = conformanceCases.some(
            (testCase) =>
              testCase.operationId === operationId && String(testCase.expect.status) === status,
          )
          if (!covered) missing.push(`${operationId} ${status}`)
        }
      }
    }

    expect(missing).toEqual([])
  })

  it('checks a state change for the success of every writing operation', () => {
    const writing = new Set(
      conformanceCases
        .filter((testCase) => (testCase.unchanged ?? []).length > 0)
        .map((testCase) => testCase.operationId),
    )

    for (const operationId of writing) {
      expect(
        conformanceCases.some(
          (testCase) => testCase.operationId === operationId && (testCase.changes ?? []).length > 0,
        ),
        operationId,
      ).toBe(true)
    }
  })
})
