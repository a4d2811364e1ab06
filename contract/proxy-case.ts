/**
 * @module
 * One conformance case through the two Prism proxies of a contract document. A case whose
 * request is valid goes through the validating proxy and must come back with its expected
 * status and no violation. A case that deliberately breaks the contract must be refused by
 * the validating proxy, and the sandbox's own answer, through the response-only proxy, must
 * match the contract. Every send is preceded by a reset of a fresh session, straight on the
 * sandbox.
 */
import type { SandboxClient, SandboxReply } from '../mocks/sandbox-client/sandbox-client.ts'
import { caseRequestInit } from '../spec/cases/request-init.ts'
import type { CaseRequest, ConformanceCase, DocumentKind } from '../spec/cases/types.ts'
import type { CaseResult } from './contract-report.ts'
import { ANY_DOCUMENTED_STATUS, type CasePlan } from './plan.ts'
import { describeViolations, readVerdict } from './prism/verdict.ts'

type Answer = SandboxReply

export interface CaseContext {
  /** The sandbox itself, for resets and sign-ins. */
  sandbox: SandboxClient
  validating: SandboxClient
  responseOnly: SandboxClient
  session: () => string
}

export async function runCase(
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
  return proxy.send({ url, ...init })
}
