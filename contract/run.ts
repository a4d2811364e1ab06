/**
 * `npm run contract`: starts the sandbox as the package ships it (`platform-sandbox/server`,
 * built into `dist/` by `npm run build`, which `npm ci` and `npm test` run first) and
 * Stoplight Prism in front of it, and checks every
 * conformance case and recorded example against the published contract and the merged one.
 * Exits 1 on any violation.
 *
 * Usage:
 *   npm run contract
 *   npm run contract -- --published /path/to/new-reference.openapi.yaml
 *   npm run contract -- --only merged --grep declineBooking
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { parseArgs } from 'node:util'
import { startServer } from 'platform-sandbox/server'
import { conformanceCases } from '../spec/cases/index.ts'
import type { DocumentKind } from '../spec/cases/types.ts'
import { checkContract, summarizeFailures } from './check-contract.ts'
import { prepareDocuments } from './documents.ts'
import { installSignalHandlers, onInterrupt } from './prism/child-processes.ts'

const USAGE = `Usage: npm run contract -- [--published <file>] [--only published|merged] [--grep <text>]

  --published <file>  check against this published contract instead of spec/platform-api.openapi.yaml
                      (the merged document is rebuilt on top of it)
  --only <kind>       check one document only: published or merged
  --grep <text>       only the cases whose name contains <text>`

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      published: { type: 'string' },
      only: { type: 'string' },
      grep: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  if (values.only !== undefined && values.only !== 'published' && values.only !== 'merged') {
    console.error(
      `contract: --only must be "published" or "merged", got "${values.only}"\n\n${USAGE}`,
    )
    return 2
  }
  if (values.published !== undefined && !existsSync(values.published)) {
    console.error(`contract: --published ${values.published}: no such file`)
    return 2
  }
  installSignalHandlers()
  const started = performance.now()
  const kinds: DocumentKind[] = values.only ? [values.only] : ['published', 'merged']
  const cases = conformanceCases.filter((testCase) =>
    values.grep ? testCase.name.includes(values.grep) : true,
  )

  const prepared = await prepareDocuments({
    ...(values.published ? { publishedPath: values.published } : {}),
    kinds,
  })
  for (const document of prepared.documents) {
    console.log(`contract: ${document.kind} contract ${shortPath(document.path)}`)
  }
  for (const error of prepared.errors) {
    console.log(`✗ [${error.kind}] the merged document cannot be built: ${error.message}`)
  }

  const server = await startServer({ port: 0, quiet: true })
  const untrack = onInterrupt(async () => {
    await server.close()
    await prepared.cleanup()
  })
  console.log(`contract: sandbox on ${server.url}, starting Prism…`)
  try {
    const report = await checkContract({
      sandboxUrl: server.url,
      documents: prepared.documents,
      cases,
      log: (line) => console.log(line),
    })
    const failed = report.failed + prepared.errors.length
    const grouped = summarizeFailures(report.results)
    if (grouped.length > 0) {
      console.log(`\ncontract: what failed, by violation:`)
      for (const line of grouped) console.log(`  ${line}`)
      console.log('')
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const extra = [
      report.skipped > 0 ? `${report.skipped} skipped` : '',
      report.notApplicable.published > 0
        ? `${report.notApplicable.published} not applicable to the published contract`
        : '',
    ].filter(Boolean)
    console.log(
      `contract: ${report.passed} passed, ${failed} failed${extra.length > 0 ? ` (${extra.join(', ')})` : ''} in ${seconds} s`,
    )
    return failed === 0 ? 0 : 1
  } finally {
    await server.close()
    untrack()
    await prepared.cleanup()
  }
}

function shortPath(path: string): string {
  const short = relative(process.cwd(), path)
  return short.startsWith('..') ? path : short
}

try {
  process.exitCode = await main()
} catch (error) {
  console.error(`contract: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
