/**
 * Runs conformance cases against one runtime of the sandbox, through `fetch` only, so the
 * same code runs in Node (msw `setupServer`, the standalone server) and in a browser page
 * (the msw worker). Each case gets its own `x-sandbox-session`, reset before it runs.
 *
 * @module
 */

import {
  createSandboxClient,
  type SandboxReply,
} from '../../mocks/sandbox-client/sandbox-client.ts'
import { caseRequestInit } from '../../spec/cases/request-init.ts'
import type {
  CaseRequest,
  CollectionName,
  ConformanceCase,
  StateCheck,
} from '../../spec/cases/types.ts'
import { deepEqual, matchesPattern, normalizeBody, preview } from './compare.ts'

export interface ConformanceTarget {
  /** Where the runtime answers: `http://127.0.0.1:4010`, or the origin msw intercepts. */
  baseUrl: string
  /** The `fetch` that reaches it. Default: the global `fetch`. */
  fetch?: typeof fetch
  /**
   * Response headers this runtime cannot show to a script (a browser never exposes
   * `set-cookie`); header expectations on them are not checked.
   */
  hiddenHeaders?: readonly string[]
  /** Prefix of the session ids, so that runs sharing a sandbox never meet. Default: random. */
  sessionPrefix?: string
}

/** What one runtime answered to one case, comparable across runtimes. */
export interface CaseOutcome {
  name: string
  status: number
  /** The body after `normalizeBody`. */
  body: unknown
  /** Every expectation the answer or the state missed; empty when the case passed. */
  failures: string[]
}

/**
 * A runner bound to one runtime. It signs personas in once (through the runtime's own
 * `POST /auth/refresh`) and reuses their tokens.
 *
 * @example
 * const runner = createConformanceRunner({ baseUrl: 'http://127.0.0.1:4010' })
 * for (const testCase of conformanceCases) {
 *   const outcome = await runner.run(testCase)
 *   if (outcome.failures.length > 0) console.log(outcome.name, outcome.failures)
 * }
 */
export function createConformanceRunner(target: ConformanceTarget) {
  // The client looks `fetch` up on every call: msw replaces the global one when it starts.
  const client = createSandboxClient({
    baseUrl: target.baseUrl,
    ...(target.fetch ? { fetch: target.fetch } : {}),
  })
  const hidden = new Set((target.hiddenHeaders ?? []).map((name) => name.toLowerCase()))
  const prefix = target.sessionPrefix ?? `conformance-${Math.random().toString(36).slice(2, 10)}`
  let sequence = 0

  /** An access token of the persona `key`, from the runtime's `POST /auth/refresh`. */
  const accessToken = (key: string) => client.accessToken(key)
  const collection = (name: CollectionName, session: string) => client.collection(name, session)

  async function snapshot(
    names: readonly CollectionName[],
    session: string,
  ): Promise<Map<CollectionName, unknown[]>> {
    const entries = await Promise.all(
      names.map(async (name) => [name, await collection(name, session)] as const),
    )
    return new Map(entries)
  }

  async function sendCase(testCase: CaseRequest, session: string): Promise<SandboxReply> {
    return client.send({
      url: testCase.url,
      ...(await caseRequestInit(testCase, session, accessToken)),
    })
  }

  /** Resets a fresh session, sends the case's request, and checks the answer and the state. */
  async function run(testCase: ConformanceCase): Promise<CaseOutcome> {
    sequence += 1
    const session = `${prefix}-${sequence}`.slice(0, 64)
    await client.reset(session)
    const watched = [
      ...new Set([
        ...(testCase.changes ?? []).map((check) => check.collection),
        ...(testCase.unchanged ?? []),
      ]),
    ]
    const before = await snapshot(watched, session)
    const answer = await sendCase(testCase.request, session)
    const after = await snapshot(watched, session)

    const failures: string[] = []
    const body = normalizeBody(answer.body)
    const { expect } = testCase
    if (answer.status !== expect.status) {
      failures.push(`status: expected ${expect.status}, got ${answer.status}`)
    }
    if (expect.body !== undefined && !deepEqual(body, normalizeBody(expect.body))) {
      failures.push(`body: expected ${preview(normalizeBody(expect.body))}, got ${preview(body)}`)
    }
    if (expect.shape) {
      const parsed = expect.shape.safeParse(answer.body)
      if (!parsed.success) {
        const issues = parsed.error.issues.map(
          (issue) => `${issue.path.join('.')}: ${issue.message}`,
        )
        failures.push(`body shape: ${issues.join('; ')} in ${preview(body)}`)
      }
    }
    for (const [name, text] of Object.entries(expect.headers ?? {})) {
      if (hidden.has(name)) continue
      const value =
        name === 'set-cookie' ? answer.headers.getSetCookie().join(', ') : answer.headers.get(name)
      if (!value?.includes(text)) {
        failures.push(`header ${name}: expected it to contain "${text}", got ${preview(value)}`)
      }
    }
    for (const check of testCase.changes ?? []) {
      failures.push(
        ...checkChange(check, before.get(check.collection)!, after.get(check.collection)!),
      )
    }
    for (const name of testCase.unchanged ?? []) {
      if (!deepEqual(before.get(name), after.get(name))) {
        failures.push(`${name}: expected no change, but the collection changed`)
      }
    }
    return { name: testCase.name, status: answer.status, body, failures }
  }

  return { run, accessToken }
}

export type ConformanceRunner = ReturnType<typeof createConformanceRunner>

function checkChange(check: StateCheck, before: unknown[], after: unknown[]): string[] {
  const label = `${check.collection} where ${preview(check.where)}`
  const selectedBefore = before.filter((record) => matchesPattern(record, check.where))
  const selectedAfter = after.filter((record) => matchesPattern(record, check.where))
  const failures: string[] = []
  for (const [moment, expected, selected] of [
    ['before', check.before, selectedBefore],
    ['after', check.after, selectedAfter],
  ] as const) {
    if (!expected) continue
    if (expected.count !== undefined && selected.length !== expected.count) {
      failures.push(
        `${label}: ${moment}, expected ${expected.count} record(s), got ${selected.length}`,
      )
    }
    const every = expected.every
    if (every && !selected.every((record) => matchesPattern(record, every))) {
      failures.push(
        `${label}: ${moment}, expected every record to match ${preview(every)}, got ${preview(selected)}`,
      )
    }
  }
  if (check.added !== undefined && selectedAfter.length - selectedBefore.length !== check.added) {
    failures.push(
      `${label}: expected ${check.added} more record(s), got ${selectedAfter.length - selectedBefore.length} (${selectedBefore.length} -> ${selectedAfter.length})`,
    )
  }
  return failures
}
