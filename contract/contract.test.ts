import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../server/start-server.ts'
import { conformanceCases } from '../spec/cases/index.ts'
import { type CaseResult, checkContract } from './check-contract.ts'
import { type PreparedDocuments, prepareDocuments } from './documents.ts'
import { runningChildren } from './prism/child-processes.ts'

const PRISM_TEST_TIMEOUT = 60_000

/**
 * A deliberately wrong backend: `payouts_enabled` is a string where the contract says
 * boolean, and every action answers `{}` without `success`. Just enough of the control API
 * for the check to reset sessions and sign personas in.
 */
function startWrongServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume()
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    const path = (request.url ?? '/').split('?')[0]
    if (path === '/__sandbox/personas') {
      return json(200, [
        { key: 'host', refreshToken: 'rt_host.d3Jvbmc' },
        { key: 'guest', refreshToken: 'rt_guest.d3Jvbmc' },
      ])
    }
    if (path === '/__sandbox/reset') return json(200, { session: 'x', scenario: 'x', seed: 1 })
    if (path === '/auth/refresh') return json(200, { accessToken: 'eyJ0.eyJ0.c2ln' })
    if (path === '/payprov/account-status') {
      return json(200, {
        payouts_enabled: 'yes',
        charges_enabled: true,
        disabled_reason: null,
        requirements: {
          past_due: [],
          currently_due: [],
          pending_verification: [],
          eventually_due: [],
        },
      })
    }
    return json(201, {})
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}

function resultOf(results: CaseResult[], document: string, name: string): CaseResult {
  const found = results.find((result) => result.document === document && result.name === name)
  if (!found) throw new Error(`No result for [${document}] ${name}`)
  return found
}

let documents: PreparedDocuments
beforeAll(async () => {
  documents = await prepareDocuments()
})
afterAll(async () => {
  await documents.cleanup()
  expect(runningChildren()).toBe(0)
})

describe('the contract check', () => {
  it(
    'reports the operation and the violation when a backend breaks the contract',
    async () => {
      const wrong = await startWrongServer()
      const cases = conformanceCases.filter((testCase) =>
        [
          'getAccountStatus: 200 the host: payouts and charges enabled',
          'declineBooking: 201 the host declines a pending booking, with a reason for the guest',
        ].includes(testCase.name),
      )
      try {
        const report = await checkContract({
          sandboxUrl: wrong.url,
          documents: documents.documents,
          cases,
          documentExamples: false,
        })

        expect(report.failed).toBe(3)
        const status = 'getAccountStatus: 200 the host: payouts and charges enabled'
        for (const document of ['published', 'merged']) {
          expect(resultOf(report.results, document, status)).toMatchObject({
            outcome: 'failed',
            operationId: 'getAccountStatus',
            problems: [
              expect.stringMatching(
                /^response violates the contract: response\.body\.payouts_enabled: .*boolean/,
              ),
            ],
          })
        }
        const decline =
          'declineBooking: 201 the host declines a pending booking, with a reason for the guest'
        expect(resultOf(report.results, 'merged', decline)).toMatchObject({
          outcome: 'failed',
          operationId: 'declineBooking',
          problems: [
            expect.stringMatching(/^response violates the contract: response\.body: .*'success'/),
          ],
        })
        // The published contract does not say that `success` is required: no violation there.
        expect(resultOf(report.results, 'published', decline).outcome).toBe('passed')
      } finally {
        await wrong.close()
      }
    },
    PRISM_TEST_TIMEOUT,
  )

  it(
    'fails clearly, and leaves no Prism behind, when Prism cannot start',
    async () => {
      await expect(
        checkContract({
          sandboxUrl: 'http://127.0.0.1:9',
          documents: documents.documents,
          cases: [],
          startupTimeoutMs: 1,
        }),
      ).rejects.toThrow(
        /^Failed to start Prism \(published contract, validating proxy\) on http:\/\/127\.0\.0\.1:\d+: Prism did not answer within 1 ms/,
      )
      expect(runningChildren()).toBe(0)
    },
    PRISM_TEST_TIMEOUT,
  )

  it(
    'passes the sandbox on its recorded examples and on every case of one operation',
    async () => {
      const sandbox = await startServer({ port: 0, quiet: true })
      const cases = conformanceCases.filter(
        (testCase) => testCase.example !== undefined || testCase.operationId === 'declineBooking',
      )
      try {
        const report = await checkContract({
          sandboxUrl: sandbox.url,
          documents: documents.documents,
          cases,
        })

        expect(report.results.filter((result) => result.outcome === 'failed')).toEqual([])
        expect(report.passed).toBeGreaterThan(cases.length)
        // The reference's own request example, from the published contract, was sent too.
        expect(report.results.some((result) => result.name.includes('own request example'))).toBe(
          true,
        )
      } finally {
        await sandbox.close()
      }
    },
    PRISM_TEST_TIMEOUT,
  )
})
