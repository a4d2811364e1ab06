/**
 * @module
 * `platform-sandbox diff --target <url>`: the drift report between the sandbox and a
 * backend. Exit code 1 when anything differs, 0 when nothing does.
 */
import { renameSync, writeFileSync } from 'node:fs'
import { diffBackends } from '../recordings/diff.ts'
import { formatReport, formatSummary } from '../recordings/diff-report.ts'
import { startServer } from '../start-server.ts'
import { checkWritable, parseTargetUrl } from './input.ts'

export async function runDiffCommand(options: { target: string; report?: string }): Promise<void> {
  const target = parseTargetUrl(options.target)
  if (options.report !== undefined) checkWritable(options.report)
  const sandbox = await startServer({ port: 0, quiet: true })
  let result: Awaited<ReturnType<typeof diffBackends>>
  try {
    result = await diffBackends({ sandboxUrl: sandbox.url, targetUrl: target.href })
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
