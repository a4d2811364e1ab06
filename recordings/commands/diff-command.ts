/**
 * @module
 * `platform-sandbox diff --target <url>`: the drift report between the sandbox and a
 * backend. Exit code 1 when anything differs, 0 when nothing does.
 */
import { readdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { personas } from '../../fixtures/personas.ts'
import {
  checkWritable,
  parseTargetUrl,
  readJsonFile,
  UsageError,
} from '../../server/commands/input.ts'
import type { startServer } from '../../server/start-server.ts'
import {
  flattenExamples,
  type RecordedExample,
  recordedExampleFileSchema,
} from '../../spec/examples/index.ts'
import { diffBackends } from '../diff/diff.ts'
import { formatReport, formatSummary } from '../diff/diff-report.ts'
import { firstIssue } from '../replay/recordings.ts'

export interface DiffOptions {
  target: string
  report?: string
  refreshToken: string[]
  includeWrites?: boolean
  examples?: string
}

/** The examples of every `*.json` file in `dir`; a file that is not one is a `UsageError`. */
function readProjectExamples(dir: string): RecordedExample[] {
  let names: string[]
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`${dir}: cannot be read (${code === 'ENOENT' ? 'no such folder' : code})`)
  }
  const files = names.map((name) => {
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

/** `startServer` is the CLI's, so that this command's bundle file holds no second server. */
export async function runDiffCommand(
  options: DiffOptions,
  start: typeof startServer,
): Promise<void> {
  const target = parseTargetUrl(options.target)
  const refreshTokens = parseRefreshTokens(options.refreshToken)
  const examples = options.examples === undefined ? [] : readProjectExamples(options.examples)
  if (options.report !== undefined) checkWritable(options.report)
  const sandbox = await start({ port: 0, quiet: true })
  let result: Awaited<ReturnType<typeof diffBackends>>
  try {
    result = await diffBackends({
      sandboxUrl: sandbox.url,
      targetUrl: target.href,
      refreshTokens,
      includeWrites: options.includeWrites ?? false,
      examples,
    })
  } finally {
    await sandbox.close()
  }
  const targetName = target.href.replace(/\/$/, '')
  console.log(formatSummary(result, targetName))
  if (options.report !== undefined) {
    const temporary = `${options.report}.${process.pid}.tmp`
    writeFileSync(temporary, formatReport(result, targetName))
    renameSync(temporary, options.report)
    console.log(`Report: ${options.report}`)
  }
  process.exitCode = result.differences.length > 0 ? 1 : 0
}
