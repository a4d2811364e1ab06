import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { personas } from '../../fixtures/personas.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { buildMergedDocument } from '../../scripts/spec/build-document.ts'
import { startTestServer } from '../../test-support/server/test-server.ts'
import { createDocumentChecker } from './document-checker.ts'
import { fuzzRequest } from './request-arbitrary.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20260601)
const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000)
const HTTP_RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? 2_000)

/** Served by the standalone server's console, not by the core: checked over HTTP only. */
const SERVER_ONLY = new Set(['getSandboxDashboard', 'getSandboxDocs', 'streamSandboxRequests'])
/** A stream that never ends: not something a request-and-check loop can read. */
const STREAMS = new Set(['streamSandboxRequests'])

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

    const statuses = new Map<number, number>()
    let count = 0
    const started = performance.now()
    await fc.assert(
      fc.asyncProperty(fuzzRequest(operations, tokens), async (request) => {
        count++
        const answer = await sandbox.handle(request)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const problems = checker.check(request.operation, request.method, answer)
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
          const problems = checker.check(request.operation, request.method, answer)
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
})
