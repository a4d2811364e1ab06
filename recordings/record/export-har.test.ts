import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fromTraffic } from '@msw/source/traffic'
import { chromium } from '@playwright/test'
import type { Har } from 'har-format'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'
import { chromiumArgs, findChromium } from '../../scripts/find-chromium.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'

const SESSION = 'export-1'
const DECLINE = '/bookings/bkg_pending/decline?dryRun=true'

interface Answer {
  status: number
  body: unknown
}

/** Same as `npm run test:e2e` does first: installs the system Chromium when there is none. */
function installChromium(): string | undefined {
  const script = fileURLToPath(new URL('../../scripts/find-chromium.ts', import.meta.url))
  execFileSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' })
  return findChromium()
}

let server: TestServer
let har: Har
let recorded: Answer[]
let folder: string

/** The requests of the exported session, replayed against whatever answers `baseUrl`. */
async function sendAll(baseUrl: string, token: string): Promise<Answer[]> {
  const answers: Answer[] = []
  for (const [path, init] of [
    ['/payprov/account-status', { headers: { authorization: `Bearer ${token}` } }],
    [
      DECLINE,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'Closed that week' }),
      },
    ],
  ] as const) {
    const response = await fetch(baseUrl + path, init)
    answers.push({ status: response.status, body: await response.json() })
  }
  return answers
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sandbox-export-'))
  server = await startTestServer()
  const token = await server.tokenFor('host')
  await server.request('/payprov/account-status', { as: 'guest' }) // another session: not exported
  const headers = { [SESSION_HEADER]: SESSION }
  recorded = []
  for (const [path, body] of [
    ['/payprov/account-status', undefined],
    [DECLINE, { reason: 'Closed that week' }],
  ] as const) {
    const answer = await server.request(path, {
      headers: { ...headers, authorization: `Bearer ${token}` },
      ...(body ? { body } : {}),
    })
    recorded.push({ status: answer.status, body: answer.body })
  }
  const exported = await server.request<Har>('/__sandbox/requests.har', { session: SESSION })
  expect(exported.status).toBe(200)
  har = exported.body
  await server.close()
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('the journal as HAR', () => {
  it('holds the session requests with their bodies', () => {
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries.map((entry) => [entry.request.method, entry.request.url])).toEqual([
      ['GET', `${server.url}/payprov/account-status`],
      ['POST', `${server.url}${DECLINE}`],
    ])
    const [status, decline] = har.log.entries
    expect(JSON.parse(status!.response.content.text!)).toEqual(recorded[0]!.body)
    expect(decline!.request.postData?.text).toBe('{"reason":"Closed that week"}')
    expect(decline!.response.status).toBe(201)
    expect(recorded.map((answer) => answer.status)).toEqual([200, 201])
  })

  it('is what sandbox.journal.toHar() gives', () => {
    const direct = server.sandbox.journal.toHar({ session: SESSION, baseUrl: server.url })
    expect(direct).toEqual(har)
    expect(server.sandbox.journal.toHar().log.entries.length).toBeGreaterThan(2)
  })

  it("answers the same requests through @msw/source's fromTraffic", async () => {
    const msw = setupServer(...fromTraffic(har))
    msw.listen({ onUnhandledRequest: 'error' })
    try {
      // The sandbox server is closed: only the HAR can answer.
      expect(await sendAll(server.url, 'any-token')).toEqual(recorded)
    } finally {
      msw.close()
    }
  })

  it("answers the same requests through Playwright's routeFromHAR", async () => {
    const file = join(folder, 'session.har')
    writeFileSync(file, JSON.stringify(har))
    const executablePath = findChromium() ?? installChromium()
    const browser = await chromium.launch({
      args: chromiumArgs,
      ...(executablePath ? { executablePath } : {}),
    })
    try {
      const page = await browser.newPage()
      await page.routeFromHAR(file, { notFound: 'abort' })
      // A document at the recorded origin, so the page's fetches are same-origin.
      await page.goto(`${server.url}/payprov/account-status`)
      const answers = await page.evaluate(
        async ({ decline }) => {
          const results: Array<{ status: number; body: unknown }> = []
          for (const [path, init] of [
            ['/payprov/account-status', {}],
            [
              decline,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ reason: 'Closed that week' }),
              },
            ],
          ] as const) {
            const response = await fetch(path, init)
            results.push({ status: response.status, body: await response.json() })
          }
          return results
        },
        { decline: DECLINE },
      )
      expect(answers).toEqual(recorded)
    } finally {
      await browser.close()
    }
  })
})
