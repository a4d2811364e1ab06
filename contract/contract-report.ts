/**
 * @module
 * What the contract check reports: one result per case and document, the totals, one
 * line per case, and the failures grouped by problem.
 */
import type { DocumentKind } from '../spec/cases/types.ts'

export interface CaseResult {
  document: DocumentKind
  name: string
  operationId: string
  outcome: 'passed' | 'failed' | 'skipped'
  /** What was checked, or why not. */
  detail: string
  /** Failures: violations and mismatches, each naming where. */
  problems: string[]
}

export interface ContractReport {
  passed: number
  failed: number
  skipped: number
  /** Cases not sent to a document because it does not document their status. */
  notApplicable: Record<DocumentKind, number>
  results: CaseResult[]
  durationMs: number
}

/** `✓ [merged] declineBooking: 409 … — 409 through Prism, no violation`. */
export function formatResult(result: CaseResult): string {
  const mark = result.outcome === 'passed' ? '✓' : result.outcome === 'failed' ? '✗' : '-'
  const detail = result.outcome === 'failed' ? result.problems.join(' | ') : result.detail
  return `${mark} [${result.document}] ${result.name} — ${detail}`
}

/**
 * The failures grouped by problem, each with the operations and documents it hit: the short
 * list to read when a new reference breaks many cases the same way.
 *
 * @example
 * summarizeFailures(report.results)
 * // ["response.body: Response body must have required property 'ok' — 2 case(s) [merged]: followUser, signContract"]
 */
export function summarizeFailures(results: readonly CaseResult[]): string[] {
  const groups = new Map<
    string,
    { documents: Set<string>; operations: Set<string>; cases: number }
  >()
  for (const result of results) {
    if (result.outcome !== 'failed') continue
    for (const problem of result.problems) {
      const key = problem.replace(/^response violates the contract: /, '')
      const group = groups.get(key) ?? { documents: new Set(), operations: new Set(), cases: 0 }
      group.documents.add(result.document)
      group.operations.add(result.operationId)
      group.cases += 1
      groups.set(key, group)
    }
  }
  return [...groups]
    .sort(([, a], [, b]) => b.cases - a.cases)
    .map(
      ([problem, group]) =>
        `${problem} — ${group.cases} case(s) [${[...group.documents].join(', ')}]: ${[...group.operations].join(', ')}`,
    )
}
