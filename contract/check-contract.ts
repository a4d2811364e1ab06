/**
 * @module
 * The contract check: sends the conformance cases (and the contract's own request examples)
 * through Stoplight Prism, in front of a running sandbox, once per contract document, and
 * reports every request or response violation with the operation it belongs to.
 *
 * Per document it starts two proxies, both with `--errors`:
 * - the validating proxy checks requests and responses. A case whose request is valid must
 *   come back with its expected status and no violation at all (an `sl-violations` warning
 *   counts too);
 * - the response-only proxy (`--validate-request=false`) is for the cases that deliberately
 *   send what the contract forbids (a bad body, a bad `dryRun`, no token). Such a case must
 *   first be refused by the validating proxy itself, which shows that the contract forbids
 *   what the sandbox refuses, and then the sandbox's own error answer, reached through the
 *   response-only proxy, must match the contract. Prism checks credentials even then, so a
 *   case without a bearer token is answered 401 by Prism in both; the sandbox's own 401 body
 *   is checked by the cases with a bad token.
 *
 * Each case runs in its own session (the `x-sandbox-session` header), reset first by a call
 * straight to the sandbox (not through Prism), so no case depends on another. The cases are
 * judged in `proxy-case.ts`, the report is shaped in `contract-report.ts`.
 */
import { createSandboxClient } from '../mocks/sandbox-client/sandbox-client.ts'
import type { ConformanceCase, DocumentKind } from '../spec/cases/types.ts'
import { type CaseResult, type ContractReport, formatResult } from './contract-report.ts'
import { documentExampleCases } from './document-examples.ts'
import { type ContractDocument, indexOperations, loadDocument, planCase } from './plan.ts'
import { type RunningPrism, startPrism } from './prism/start-prism.ts'
import { runCase } from './proxy-case.ts'

export {
  type CaseResult,
  type ContractReport,
  formatResult,
  summarizeFailures,
} from './contract-report.ts'

/** Each request's limit, so that a stuck proxy fails its case instead of the run. */
const REQUEST_TIMEOUT_MS = 15_000

export interface CheckContractOptions {
  /** The running sandbox, e.g. `http://127.0.0.1:41234`. */
  sandboxUrl: string
  documents: readonly ContractDocument[]
  cases: readonly ConformanceCase[]
  /** Also send the request examples the documents carry themselves. Default `true`. */
  documentExamples?: boolean
  /** One line per case, as it finishes. Default: nothing. */
  log?: (line: string) => void
  /** Prism's startup limit. Default 30 s. */
  startupTimeoutMs?: number
}

/** Runs the check; never leaves a Prism process behind, whatever happens. */
export async function checkContract(options: CheckContractOptions): Promise<ContractReport> {
  const started = performance.now()
  const log = options.log ?? (() => {})
  const results: CaseResult[] = []
  const notApplicable: Record<DocumentKind, number> = { published: 0, merged: 0 }
  const prisms: RunningPrism[] = []
  const sessionPrefix = `contract-${Date.now().toString(36)}`
  let sequence = 0

  try {
    const loaded = await Promise.all(
      options.documents.map(async (document) => ({
        document,
        operations: indexOperations(await loadDocument(document.path)),
      })),
    )
    // Every proxy is awaited, failed or not, so that none is left starting when this throws.
    const starting = loaded.flatMap(({ document }) =>
      [true, false].map((validateRequest) =>
        startPrism({
          mode: 'proxy',
          document: document.path,
          upstream: options.sandboxUrl,
          errors: true,
          validateRequest,
          label: `${document.kind} contract, ${validateRequest ? 'validating' : 'response-only'} proxy`,
          ...(options.startupTimeoutMs ? { startupTimeoutMs: options.startupTimeoutMs } : {}),
        }),
      ),
    )
    const settled = await Promise.allSettled(starting)
    for (const outcome of settled) if (outcome.status === 'fulfilled') prisms.push(outcome.value)
    const failure = settled.find((outcome) => outcome.status === 'rejected')
    if (failure) throw failure.reason
    const proxy = (prism: RunningPrism) =>
      createSandboxClient({ baseUrl: prism.url, timeoutMs: REQUEST_TIMEOUT_MS })
    const proxies = loaded.map((_, index) => ({
      validating: proxy(prisms[index * 2]!),
      responseOnly: proxy(prisms[index * 2 + 1]!),
    }))
    const sandbox = createSandboxClient({
      baseUrl: options.sandboxUrl,
      timeoutMs: REQUEST_TIMEOUT_MS,
    })

    for (const [index, { document, operations }] of loaded.entries()) {
      const { validating, responseOnly } = proxies[index]!
      const cases = [
        ...options.cases,
        ...(options.documentExamples === false
          ? []
          : documentExampleCases(operations, options.cases)),
      ]
      for (const testCase of cases) {
        const plan = planCase(testCase, document.kind, operations)
        if (plan.route === 'not-applicable') {
          notApplicable[document.kind] += 1
          continue
        }
        const result = await runCase(testCase, plan, document.kind, {
          sandbox,
          validating,
          responseOnly,
          session: () => `${sessionPrefix}-${++sequence}`,
        })
        results.push(result)
        log(formatResult(result))
      }
      if (notApplicable[document.kind] > 0) {
        log(
          `  [${document.kind}] ${notApplicable[document.kind]} case(s) not sent: their status is not in this contract (the reference documents error statuses for row 1 only)`,
        )
      }
    }
  } finally {
    await Promise.allSettled(prisms.map((prism) => prism.stop()))
  }

  const count = (outcome: CaseResult['outcome']) =>
    results.filter((result) => result.outcome === outcome).length
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    notApplicable,
    results,
    durationMs: performance.now() - started,
  }
}
