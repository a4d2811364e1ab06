import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { personas } from '../../fixtures/personas.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { buildMergedDocument } from '../../scripts/spec/build-document.ts'
import { startTestServer } from '../../test-support/server/test-server.ts'
import { FINDINGS, namesMalformedSession } from './control-arbitrary.ts'
import { createDocumentChecker, type DocumentedOperation } from './document-checker.ts'
import {
  type FuzzRequest,
  type FuzzSequence,
  fuzzRequest,
  fuzzSequence,
} from './request-arbitrary.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20260601)
const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000)
const HTTP_RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? 2_000)
const SEQUENCE_RUNS = Number(process.env.FUZZ_SEQUENCE_RUNS ?? 300)

/** Served by the standalone server's console, not by the core: checked over HTTP only. */
const SERVER_ONLY = new Set([
  'getSandboxDashboard',
  'getSandboxDocs',
  'streamSandboxRequests',
  'getSandboxReadiness',
  'getSandboxMetrics',
])
/** A stream that never ends: not something a request-and-check loop can read. */
const STREAMS = new Set(['streamSandboxRequests'])

/** A request naming a malformed session is refused with 400 on every path, before anything. */
function sessionProblems(request: FuzzRequest, status: number): string[] {
  if (!namesMalformedSession(request.headers) || status === 400) return []
  return [`${request.method} ${request.url} -> ${status}: a malformed session id, not refused`]
}

/** Access tokens of every persona, from a dry-run sign-in. */
async function tokensOf(sandbox: ReturnType<typeof createSandbox>): Promise<string[]> {
  const tokens: string[] = []
  for (const persona of personas) {
    const answer = await sandbox.handle({
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: persona.refreshToken }),
    })
    tokens.push((answer.body as { accessToken: string }).accessToken)
  }
  return tokens
}

/** An answer with its instants and tokens blanked: what two sessions started alike share. */
const comparable = (body: unknown) =>
  JSON.stringify(body ?? null)
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, '<token>')

/** Whether an HTTP client sends the path as generated (it resolves `.` and `..` segments). */
function sentAsIs(request: { url: string }): boolean {
  return new URL(request.url, 'http://127.0.0.1').pathname === request.url.split('?')[0]
}

describe('the merged document describes what the sandbox answers', () => {
  it(`holds for ${RUNS} seeded random requests: documented status, matching body, no 5xx`, async () => {
    const document = await buildMergedDocument()
    const sandbox = createSandbox({ openapiDocument: () => document })
    const checker = createDocumentChecker(document)
    const operations = checker.operations.filter((o) => !SERVER_ONLY.has(o.operationId))

    const tokens = await tokensOf(sandbox)

    const statuses = new Map<number, number>()
    let count = 0
    const started = performance.now()
    await fc.assert(
      fc.asyncProperty(fuzzRequest(operations, tokens), async (request) => {
        count++
        const answer = await sandbox.handle(request)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const problems = [
          ...checker.check(request.operation, request.method, answer),
          ...sessionProblems(request, answer.status),
        ]
        if (problems.length > 0) {
          throw new Error(
            `${problems.join('\n')}\nrequest: ${JSON.stringify(request)}\nbody: ${JSON.stringify(answer.body)}`,
          )
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const mix = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ')
    console.log(`contract fuzz: seed ${SEED}, ${count} requests, 0 failures, ${seconds} s (${mix})`)
    expect(count).toBeGreaterThanOrEqual(RUNS)
    // The mix reaches successes and each kind of refusal, so the operations really ran.
    for (const status of [200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415]) {
      expect(statuses.get(status), `status ${status}`).toBeGreaterThan(0)
    }
  }, 120_000)

  it(`holds for ${HTTP_RUNS} more through the standalone server, adapter included`, async () => {
    const document = await buildMergedDocument()
    const checker = createDocumentChecker(document)
    const operations = checker.operations.filter((o) => !STREAMS.has(o.operationId))
    const server = await startTestServer()
    try {
      const tokens = await Promise.all(personas.map((persona) => server.tokenFor(persona.key)))
      let count = 0
      await fc.assert(
        fc.asyncProperty(fuzzRequest(operations, tokens).filter(sentAsIs), async (request) => {
          count++
          const response = await server.request(request.url, {
            method: request.method,
            // One connection per request: a refused upload closes its connection.
            headers: { ...request.headers, connection: 'close' },
            ...(request.body === undefined ? {} : { body: request.body }),
          })
          const answer = {
            status: response.status,
            headers: response.headers as Record<string, string>,
            setCookie: [],
            body: response.text === '' ? undefined : (response.body ?? response.text),
          }
          const problems = [
            ...checker.check(request.operation, request.method, answer),
            ...sessionProblems(request, answer.status),
          ]
          if (problems.length > 0) {
            throw new Error(
              `${problems.join('\n')}\nrequest: ${JSON.stringify(request)}\nbody: ${response.text.slice(0, 500)}`,
            )
          }
        }),
        { seed: SEED + 1, numRuns: HTTP_RUNS, endOnFailure: true },
      )
      console.log(`contract fuzz over HTTP: seed ${SEED + 1}, ${count} requests, 0 failures`)
      expect(count).toBeGreaterThanOrEqual(HTTP_RUNS)
    } finally {
      await server.close()
    }
  }, 120_000)
  it(`holds for ${SEQUENCE_RUNS} runs of control calls on one session: a reset to default brings it back`, async () => {
    const document = await buildMergedDocument()
    const sandbox = createSandbox({ openapiDocument: () => document })
    const checker = createDocumentChecker(document)
    const control = checker.operations.filter(
      (o) => o.path.startsWith('/__sandbox/') && !SERVER_ONLY.has(o.operationId),
    )
    const api = checker.operations.filter((o) => !o.path.startsWith('/__sandbox/'))
    const tokens = await tokensOf(sandbox)
    const operation = (method: string, url: string) =>
      control.find((o) => o.method === method && o.path === url) as DocumentedOperation
    const call = (method: string, url: string, body: unknown): FuzzRequest => ({
      operation: operation(method, url),
      method,
      url,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const signIn: FuzzRequest = {
      ...call('POST', '/__sandbox/reset', {}),
      operation: api.find((o) => o.operationId === 'refreshToken')!,
      url: '/auth/refresh',
      body: JSON.stringify({ refreshToken: personas[0]!.refreshToken }),
    }
    // Every earlier finding is sent first, each followed by the reset and a sign-in.
    const examples: [FuzzSequence][] = FINDINGS.map(({ method, url, body }) => [
      { calls: [call(method, url, body)], after: signIn },
    ])
    let run = 0
    const send = async (request: FuzzRequest, session: string) => {
      const headers = { ...request.headers, 'x-sandbox-session': session }
      const answer = await sandbox.handle({ ...request, headers })
      const problems = checker.check(request.operation, request.method, answer)
      if (problems.length > 0) {
        throw new Error(`${problems.join('\n')}\nrequest: ${JSON.stringify(request)}`)
      }
      return answer
    }
    await fc.assert(
      fc.asyncProperty(fuzzSequence(control, api, tokens), async ({ calls, after }) => {
        run++
        const session = `sequence-${run}`
        for (const request of calls) await send(request, session)
        const reset = await send(call('POST', '/__sandbox/reset', { scenario: 'default' }), session)
        expect(reset.status, JSON.stringify(reset.body)).toBe(200)
        const afterReset = await send(after, session)
        const fresh = await send(after, `fresh-${run}`)
        expect({ status: afterReset.status, body: comparable(afterReset.body) }).toEqual({
          status: fresh.status,
          body: comparable(fresh.body),
        })
      }),
      { seed: SEED + 2, numRuns: SEQUENCE_RUNS, endOnFailure: true, examples },
    )
    console.log(`contract fuzz of sequences: seed ${SEED + 2}, ${run} runs, 0 failures`)
    expect(run).toBeGreaterThanOrEqual(SEQUENCE_RUNS)
  }, 120_000)
})
