/**
 * @module
 * The drift report as Markdown, and as the short summary the command prints.
 */
import type { DifferenceKind, DiffResult } from './diff.ts'

const KINDS: readonly DifferenceKind[] = ['status', 'body', 'headers']

/** The differing operations, each with the kinds of difference it shows. */
export function differingOperations(result: DiffResult): Map<string, DifferenceKind[]> {
  const found = new Map<string, Set<DifferenceKind>>()
  for (const difference of result.differences) {
    const kinds = found.get(difference.operationId) ?? new Set()
    kinds.add(difference.kind)
    found.set(difference.operationId, kinds)
  }
  return new Map(
    [...found].map(([operationId, kinds]) => [operationId, KINDS.filter((k) => kinds.has(k))]),
  )
}

/** One line per differing operation, for the terminal. */
export function formatSummary(result: DiffResult, targetUrl: string): string {
  const differing = differingOperations(result)
  const lines = [
    `Sent ${result.cases} requests to ${result.operations.length} operations, to the sandbox and to ${targetUrl}.`,
  ]
  if (differing.size === 0) {
    lines.push('No difference in status, body shape or headers.')
    return lines.join('\n')
  }
  lines.push(`${differing.size} operations differ:`)
  for (const [operationId, kinds] of differing) {
    const count = new Set(
      result.differences.filter((d) => d.operationId === operationId).map((d) => d.case),
    ).size
    lines.push(`  ${operationId}: ${kinds.join(', ')} (${count} request${count === 1 ? '' : 's'})`)
  }
  return lines.join('\n')
}

/** The full report: a table of the differing operations, then every difference by request. */
export function formatReport(result: DiffResult, targetUrl: string): string {
  const differing = differingOperations(result)
  const lines = [
    `# Sandbox vs ${targetUrl}`,
    '',
    `${result.cases} requests to ${result.operations.length} operations; ${differing.size} operations differ.`,
  ]
  if (differing.size > 0) {
    lines.push('', '| operation | status | body shape | headers |', '| --- | --- | --- | --- |')
    for (const [operationId, kinds] of differing) {
      const mark = (kind: DifferenceKind) => (kinds.includes(kind) ? 'differs' : '')
      lines.push(`| ${operationId} | ${mark('status')} | ${mark('body')} | ${mark('headers')} |`)
    }
    for (const operationId of differing.keys()) {
      lines.push('', `## ${operationId}`, '')
      for (const difference of result.differences) {
        if (difference.operationId !== operationId) continue
        lines.push(`- ${difference.case}: ${difference.kind}: ${difference.detail}`)
      }
    }
  }
  const same = result.operations.filter((operationId) => !differing.has(operationId))
  if (same.length > 0) lines.push('', `Same in both: ${same.join(', ')}.`)
  return `${lines.join('\n')}\n`
}
