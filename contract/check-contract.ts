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
 * Each case runs in its own session (the `x-sandbox-session` header), reset first by a call straight to the
 * sandbox (not through Prism), so no case depends on another.
 */
import {
  createSandboxClient,
  type SandboxClient,
  type SandboxReply,
} from '../mocks/testing/sandbox-client.ts'
import type { CaseRequest, ConformanceCase, DocumentKind } from './cases/types.ts'
import { caseRequestInit } from './conformance/run-case.ts'
import {
  ANY_DOCUMENTED_STATUS,
  type CasePlan,
  type ContractDocument,
  type DocumentOperation,
  indexOperations,
  loadDocument,
  planCase,
} from './plan.ts'
import { type RunningPrism, startPrism } from './prism/start-prism.ts'
import { describeViolations, readVerdict } from './prism/verdict.ts'

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

type Answer = SandboxReply

/** Each request's limit, so that a stuck proxy fails its case instead of the run. */
const REQUEST_TIMEOUT_MS = 15_000

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

interface CaseContext {
  /** The sandbox itself, for resets and sign-ins. */
  sandbox: SandboxClient
  validating: SandboxClient
  responseOnly: SandboxClient
  session: () => string
}

async function runCase(
  testCase: ConformanceCase,
  plan: Exclude<CasePlan, { route: 'not-applicable' }>,
  kind: DocumentKind,
  context: CaseContext,
): Promise<CaseResult> {
  const base = { document: kind, name: testCase.name, operationId: testCase.operationId }
  if (plan.route === 'skip') {
    return { ...base, outcome: 'skipped', detail: `not sent: ${plan.reason}`, problems: [] }
  }
  const expected = testCase.expect.status
  try {
    const filled = plan.url === testCase.request.url ? '' : ` (sent as ${plan.url})`
    if (plan.route === 'forward') {
      const answer = await send(context, context.validating, testCase.request, plan.url)
      const problems = judgeForwarded(answer, expected)
      return problems.length === 0
        ? {
            ...base,
            outcome: 'passed',
            detail: `${answer.status}, no violation${filled}`,
            problems,
          }
        : { ...base, outcome: 'failed', detail: '', problems }
    }

    const refused = await send(context, context.validating, testCase.request, plan.url)
    const refusal = readVerdict(refused)
    const problems: string[] = []
    if (!refusal.answeredByPrism || refusal.problem === 'VIOLATIONS') {
      problems.push(
        `the ${kind} contract accepts this request, but the case says it breaks it (the sandbox answered ${refused.status})`,
      )
    }
    const why =
      refusal.problem === 'UNAUTHORIZED'
        ? 'no credentials'
        : describeViolations(refusal.violations) || refusal.detail || 'refused'
    const answer = await send(context, context.responseOnly, testCase.request, plan.url)
    const verdict = readVerdict(answer)
    if (verdict.answeredByPrism && verdict.problem === 'UNAUTHORIZED' && expected === 401) {
      return problems.length === 0
        ? {
            ...base,
            outcome: 'passed',
            detail: `refused by Prism (401, ${why}) as the contract requires; Prism checks credentials before forwarding, so the sandbox's 401 is covered by the bad-token cases`,
            problems,
          }
        : { ...base, outcome: 'failed', detail: '', problems }
    }
    problems.push(...judgeForwarded(answer, expected))
    return problems.length === 0
      ? {
          ...base,
          outcome: 'passed',
          detail: `refused by Prism (${refused.status}: ${why}); the sandbox's ${answer.status} matches the contract`,
          problems,
        }
      : { ...base, outcome: 'failed', detail: '', problems }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { ...base, outcome: 'failed', detail: '', problems: [`could not be sent: ${message}`] }
  }
}

/** The problems of an answer that should be the sandbox's, passed on by Prism unchanged. */
function judgeForwarded(answer: Answer, expected: number): string[] {
  const verdict = readVerdict(answer)
  if (verdict.answeredByPrism) {
    const what =
      verdict.problem === 'VIOLATIONS'
        ? 'response violates the contract'
        : verdict.problem === 'UNPROCESSABLE_ENTITY'
          ? 'request violates the contract'
          : `Prism answered ${answer.status} ${verdict.problem}`
    const list = describeViolations(verdict.violations) || verdict.detail || ''
    return [`${what}: ${list}`]
  }
  const problems: string[] = []
  if (expected !== ANY_DOCUMENTED_STATUS && answer.status !== expected) {
    problems.push(`expected ${expected}, the sandbox answered ${answer.status}`)
  }
  if (verdict.violations.length > 0) {
    problems.push(`${answer.status} with violations: ${describeViolations(verdict.violations)}`)
  }
  return problems
}

async function send(
  context: CaseContext,
  proxy: SandboxClient,
  request: CaseRequest,
  url: string,
): Promise<Answer> {
  const session = context.session()
  await context.sandbox.reset(session)
  const init = await caseRequestInit(request, session, (persona) =>
    context.sandbox.accessToken(persona),
  )
  return proxy.send(url, init)
}

/**
 * The contract's own request examples (the reference's, in the published document) that no
 * case already sends, each sent like the operation's first successful case with the example
 * as its body. Their status is not known in advance: any status the contract documents is
 * accepted, and Prism reports any other.
 */
function documentExampleCases(
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
