/**
 * @module
 * The request examples a contract document carries itself, turned into cases.
 */
import type { ConformanceCase } from '../spec/cases/types.ts'
import { ANY_DOCUMENTED_STATUS, type DocumentOperation } from './plan.ts'

/**
 * The contract's own request examples (the reference's, in the published document) that no
 * case already sends, each sent like the operation's first successful case with the example
 * as its body. Their status is not known in advance: any status the contract documents is
 * accepted, and Prism reports any other.
 */
export function documentExampleCases(
  operations: Map<string, DocumentOperation>,
  cases: readonly ConformanceCase[],
): ConformanceCase[] {
  const replayed = new Set(cases.map((testCase) => testCase.example).filter(Boolean))
  const extra: ConformanceCase[] = []
  for (const operation of operations.values()) {
    const template = cases.find(
      (testCase) =>
        testCase.operationId === operation.operationId &&
        testCase.expect.status < 300 &&
        testCase.example !== undefined,
    )
    if (!template) continue
    for (const [name, value] of operation.requestExamples) {
      if (replayed.has(`${operation.operationId}/${name}`)) continue
      extra.push({
        name: `${operation.operationId}: the contract's own request example "${name}"`,
        operationId: operation.operationId,
        request: { ...template.request, body: value },
        expect: { status: ANY_DOCUMENTED_STATUS },
      })
    }
  }
  return extra
}
