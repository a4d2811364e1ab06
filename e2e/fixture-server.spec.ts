/**
 * The Playwright fixture with `sandboxServer`: nothing is routed; each test gets a session
 * of its own on the standalone sandbox this run started (`playwright.config.ts`), carried
 * by the `sandbox_session` cookie, and reads and resets it through the control API. Tests
 * of this file run in parallel workers against that one server.
 */
import type { Page } from '@playwright/test'
import { expect, test } from 'platform-sandbox/playwright'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { sharedFreePort } from '../scripts/free-port-sync.ts'

const server = `http://localhost:${sharedFreePort('SANDBOX_E2E_SERVER_PORT')}`
const host = personas.find((persona) => persona.key === 'host')!
const pending = anchors.bookings.pending

test.use({ sandboxServer: server })

/**
 * From a page of the app's origin, signs the host in at the server with the cookie flow and
 * declines the pending booking; the browser sends the session cookie along with every call.
 * (The example page itself calls its own origin, which nothing answers here.)
 */
async function declineFromThePage(page: Page): Promise<number[]> {
  await page.goto('/?worker=off')
  return page.evaluate(
    async ({ server, code, bookingId }) => {
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${server}${path}`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        })
      const signIn = await post('/auth/idp/complete', { code })
      const refresh = await post('/auth/refresh?dryRun=true', {})
      const { accessToken } = (await refresh.json()) as { accessToken: string }
      const decline = await post(
        `/bookings/${bookingId}/decline`,
        { reason: 'Fully booked' },
        { authorization: `Bearer ${accessToken}` },
      )
      return [signIn.status, refresh.status, decline.status]
    },
    { server, code: host.idpCode, bookingId: pending },
  )
}

for (const name of ['one test', 'another test in parallel']) {
  test(`${name} declines the pending booking in its own session`, async ({ page, sandbox }) => {
    expect((await sandbox.store()).bookings.get(pending)?.status).toBe('pending')
    expect(await declineFromThePage(page)).toEqual([201, 200, 201])
    expect((await sandbox.store()).bookings.get(pending)?.status).toBe('declined')
    const journal = sandbox.journal.list()
    expect(journal.map((entry) => [entry.operationId, entry.status])).toEqual([
      ['completeIdpSignIn', 201],
      ['refreshToken', 200],
      ['declineBooking', 201],
    ])
    expect(new Set(journal.map((entry) => entry.session)).size).toBe(1)
  })
}

test('a test that declines nothing sees the booking pending', async ({ sandbox }) => {
  const store = await sandbox.store()
  expect(store.bookings.get(pending)?.status).toBe('pending')
  expect(store.snapshot.scenario).toBe('default')
  expect(sandbox.journal.list()).toEqual([])
})

test('sets the session cookie for the app and the server, and routes nothing', async ({
  page,
  context,
  sandbox,
  network,
}) => {
  const [cookie] = (await context.cookies(test.info().project.use.baseURL!)).filter(
    (candidate) => candidate.name === 'sandbox_session',
  )
  expect(cookie).toMatchObject({ domain: 'localhost', path: '/', sameSite: 'Lax' })
  const appRequest = page.waitForRequest((request) => request.url().includes('worker=off'))
  await declineFromThePage(page)
  expect(await (await appRequest).headerValue('cookie')).toContain(
    `sandbox_session=${cookie!.value}`,
  )
  expect(sandbox.journal.list().map((entry) => entry.session)).toEqual([
    cookie!.value,
    cookie!.value,
    cookie!.value,
  ])
  expect(network.listHandlers()).toEqual([])
  expect(() => network.use()).toThrow(/routes nothing/)
})

test('reset() puts the session back to the starting scenario, or to another', async ({
  page,
  sandbox,
}) => {
  await declineFromThePage(page)
  expect(await sandbox.reset()).toMatchObject({ scenario: 'default' })
  expect((await sandbox.store()).bookings.get(pending)?.status).toBe('pending')
  expect(sandbox.journal.list()).toEqual([])

  await sandbox.reset({ scenario: 'empty' })
  const empty = await sandbox.store()
  expect(empty.bookings.count()).toBe(0)
  expect(empty.snapshot.scenario).toBe('empty')
})

test('journal.clear() empties the session journal on the server', async ({ page, sandbox }) => {
  await declineFromThePage(page)
  expect(sandbox.journal.list()).toHaveLength(3)
  sandbox.journal.clear()
  expect(sandbox.journal.list()).toEqual([])
  expect((await sandbox.store()).bookings.get(pending)?.status).toBe('declined')
})

test.describe('with sandboxScenario', () => {
  test.use({ sandboxScenario: 'empty' })

  test('the session starts from the scenario the test names', async ({ sandbox }) => {
    const store = await sandbox.store()
    expect(store.bookings.get(pending)).toBeUndefined()
    expect(store.snapshot.scenario).toBe('empty')
  })
})
