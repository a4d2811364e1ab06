/**
 * @module
 * `platform-sandbox diff --target <url>`: the drift report between the sandbox and a backend,
 * as a summary and as Markdown; exit code 1 when anything differs, 2 when the target cannot be
 * reached.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { personas } from '../../fixtures/personas.ts'
import type { AnyOperationDeclaration } from '../../mocks/core/index.ts'
import {
  type DifferenceKind,
  type DiffResult,
  diffBackends,
  dryRunOperations,
  TargetUnreachableError,
} from '../../recordings/diff/diff.ts'
import { firstIssue } from '../../recordings/replay/recordings.ts'
import type { startServer } from '../../server/start-server.ts'
import {
  flattenExamples,
  type RecordedExample,
  recordedExampleFileSchema,
} from '../../spec/examples/index.ts'
import { checkWritable, parseTargetUrl, readJsonFile, UsageError, writeWhole } from './input.ts'

export interface DiffOptions {
  target: string
  report?: string
  refreshToken: string[]
  includeWrites?: boolean
  examples?: string
  operations?: string
}

/**
 * The named examples each operation of your own declares, as requests: its method and path,
 * the path parameters from the example's same-named fields, as a persona it lets call.
 */
export function declaredExamples(declarations: readonly AnyOperationDeclaration[]) {
  return declarations.flatMap(({ id, method, path, auth, responses }) => {
    const role = typeof auth === 'object' ? auth.role : 'guest'
    const persona =
      auth === 'public' ? undefined : personas.find((p) => p.roles.includes(role))?.key
    return Object.entries(responses as Record<string, { examples?: object }>).flatMap(
      ([status, { examples }]) =>
        Object.entries(examples ?? {}).map(([name, body]) => {
          const fields = Object(body) as Record<string, unknown>
          const names = (path.match(/\{\w+\}/g) ?? []).map((param) => param.slice(1, -1))
          const params = Object.fromEntries(names.map((param) => [param, String(fields[param])]))
          const request = { params, ...(persona !== undefined && { persona }) }
          const response = { status: +status, body }
          return { operationId: id, method, path, name, request, response } as RecordedExample
        }),
    )
  })
}

/** The examples of every `*.json` file in `dir`; a file that is not one is a `UsageError`. */
function readProjectExamples(dir: string): RecordedExample[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`${dir}: cannot be read (${code === 'ENOENT' ? 'no such folder' : code})`)
  }
  const files = names.sort().map((name) => {
    const path = join(dir, name)
    const parsed = recordedExampleFileSchema.safeParse(readJsonFile(path))
    if (parsed.success) return parsed.data
    throw new UsageError(`${path}: not an examples file (${firstIssue(parsed.error)})`)
  })
  return flattenExamples(files)
}

/** `persona=token` pairs, by persona key; a persona the sandbox does not have is refused. */
function parseRefreshTokens(pairs: readonly string[]): Record<string, string> {
  const tokens: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    const key = pair.slice(0, at)
    if (at <= 0 || at === pair.length - 1) {
      throw new UsageError(`--refresh-token "${pair}" is not <persona>=<token>`)
    }
    if (!personas.some((persona) => persona.key === key)) {
      throw new UsageError(
        `--refresh-token: no persona "${key}" (one of ${personas.map((persona) => persona.key).join(', ')})`,
      )
    }
    tokens[key] = pair.slice(at + 1)
  }
  return tokens
}

const KINDS: readonly DifferenceKind[] = ['status', 'body', 'headers']

/** The differing operations, each with the kinds of difference it shows. */
export function differingOperations(result: DiffResult): Map<string, DifferenceKind[]> {
  const found = new Map<string, DifferenceKind[]>()
  for (const { operationId: id } of result.differences) {
    const shows = (kind: DifferenceKind) =>
      result.differences.some((d) => d.operationId === id && d.kind === kind)
    found.set(id, KINDS.filter(shows))
  }
  return found
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`
const differ = (count: number) =>
  `${plural(count, 'operation')} ${count === 1 ? 'differs' : 'differ'}`

/** What was not compared as asked: requests left out, sign-ins the target refused. */
function caveats({ leftOut, signInRefused }: DiffResult): string[] {
  const ids = leftOut
    .map(({ operationId }) => operationId)
    .filter((id) => !dryRunOperations.has(id))
  const parts = [
    ids.length > 0 &&
      `${ids.length} of operations without dryRun (${[...new Set(ids)].join(', ')})`,
    ids.length < leftOut.length && `${leftOut.length - ids.length} with a dryRun other than true`,
  ].filter(Boolean)
  return [
    leftOut.length > 0 &&
      `Left out ${plural(leftOut.length, 'request')} that could change the target's data: ${parts.join(', ')}; --include-writes sends them.`,
    signInRefused.length > 0 &&
      `The target refused the sign-in of ${signInRefused.join(', ')}: their requests went with an empty token. Give the target's refresh tokens with --refresh-token <persona>=<token>.`,
  ].filter((line) => line !== false)
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

/** `startServer` is the CLI's, so that this command's bundle file holds no second server. */
export async function runDiffCommand(options: DiffOptions, start: typeof startServer) {
  const target = parseTargetUrl(options.target)
  const refreshTokens = parseRefreshTokens(options.refreshToken)
  const examples = options.examples === undefined ? [] : readProjectExamples(options.examples)
  const { readOperations } = await import('../operations-file.ts')
  const operations = options.operations && (await readOperations(options.operations))
  if (operations) examples.push(...declaredExamples(operations))
  if (options.report !== undefined) checkWritable(options.report)
  const targetName = target.href.replace(/\/$/, '')
  const sandbox = await start({ port: 0, quiet: true, ...(operations && { operations }) })
  const result = await diffBackends({
    sandboxUrl: sandbox.url,
    targetUrl: target.href,
    refreshTokens,
    includeWrites: options.includeWrites ?? false,
    examples,
  })
    .catch((error: unknown) => {
      // Exit code 2, not 1: a CI job tells a target that is down from one that differs.
      if (!(error instanceof TargetUnreachableError)) throw error
      const after =
        error.answered === 0
          ? ''
          : ` after it answered ${plural(error.answered, 'request')}; the comparison is incomplete, nothing reported`
      throw new UsageError(`cannot reach ${targetName} (${error.reason})${after}`)
    })
    .finally(() => sandbox.close())
  console.log(formatSummary(result, targetName))
  if (options.report !== undefined) {
    writeWhole(options.report, formatReport(result, targetName))
    console.log(`Report: ${options.report}`)
  }
  process.exitCode = result.differences.length > 0 ? 1 : 0
}
