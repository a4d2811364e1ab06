/**
 * @module
 * The drift report as Markdown, and as the short summary the command prints.
 */
import { operations } from '../../mocks/operations/table.ts'
import type { DifferenceKind, DiffResult } from './diff.ts'

const KINDS: readonly DifferenceKind[] = ['status', 'body', 'headers']

/** The differing operations, each with the kinds of difference it shows. */
export function differingOperations(result: DiffResult): Map<string, DifferenceKind[]> {
  const found = new Map<string, DifferenceKind[]>()
  for (const { operationId } of result.differences) {
    const kinds = result.differences.filter((d) => d.operationId === operationId).map((d) => d.kind)
    found.set(
      operationId,
      KINDS.filter((kind) => kinds.includes(kind)),
    )
  }
  return found
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`
const differ = (count: number) =>
  `${plural(count, 'operation')} ${count === 1 ? 'differs' : 'differ'}`

/** What was not compared as asked: requests left out, sign-ins the target refused. */
function caveats(result: DiffResult): string[] {
  const lines: string[] = []
  if (result.leftOut.length > 0) {
    const withoutDryRun = result.leftOut.filter(
      (testCase) => !operations.some(({ id, dryRun }) => id === testCase.operationId && dryRun),
    )
    const operationIds = [...new Set(withoutDryRun.map((testCase) => testCase.operationId))]
    const parts = [
      withoutDryRun.length > 0 &&
        `${withoutDryRun.length} of operations without dryRun (${operationIds.join(', ')})`,
      withoutDryRun.length < result.leftOut.length &&
        `${result.leftOut.length - withoutDryRun.length} with a dryRun other than true`,
    ].filter(Boolean)
    lines.push(
      `Left out ${plural(result.leftOut.length, 'request')} that could change the target's data: ${parts.join(', ')}; --include-writes sends them.`,
    )
  }
  if (result.signInRefused.length > 0) {
    lines.push(
      `The target refused the sign-in of ${result.signInRefused.join(', ')}: their requests went with an empty token. Give the target's refresh tokens with --refresh-token <persona>=<token>.`,
    )
  }
  return lines
}

/** One line per differing operation, for the terminal. */
export function formatSummary(result: DiffResult, targetUrl: string): string {
  const differing = differingOperations(result)
  const lines = [
    `Sent ${plural(result.cases, 'request')} to ${plural(result.operations.length, 'operation')}, to the sandbox and to ${targetUrl}.`,
    ...caveats(result),
    differing.size === 0
      ? 'No difference in status, body shape or headers.'
      : `${differ(differing.size)}:`,
  ]
  for (const [operationId, kinds] of differing) {
    const differences = result.differences.filter((d) => d.operationId === operationId)
    const count = new Set(differences.map((d) => d.case)).size
    lines.push(`  ${operationId}: ${kinds.join(', ')} (${plural(count, 'request')})`)
  }
  return lines.join('\n')
}

/** The full report: a table of the differing operations, then every difference by request. */
export function formatReport(result: DiffResult, targetUrl: string): string {
  const differing = differingOperations(result)
  const lines = [
    `# Sandbox vs ${targetUrl}`,
    '',
    `${plural(result.cases, 'request')} to ${plural(result.operations.length, 'operation')}; ${differ(differing.size)}.`,
    ...caveats(result).map((line) => `\n${line}`),
  ]
  if (differing.size > 0) {
    lines.push('', '| operation | status | body shape | headers |', '| --- | --- | --- | --- |')
  }
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
  const same = result.operations.filter((operationId) => !differing.has(operationId))
  if (same.length > 0) lines.push('', `Same in both: ${same.join(', ')}.`)
  return `${lines.join('\n')}\n`
}
