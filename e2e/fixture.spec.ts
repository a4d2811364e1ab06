/**
 * The Playwright fixture: the example page without its worker (`?worker=off`), its
 * API calls answered through `context.route()` by a sandbox of the test's own.
 */

import { readFileSync } from 'node:fs'
import { HttpResponse, http } from 'msw'
import { expect, test } from 'platform-sandbox/playwright'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { parseScenarioText } from '../mocks/scenarios/parse-text.ts'
import { brokenAccountStatus, brokenReplay, stagingReplay } from './app/recordings.ts'
import { keepScreenshot } from './support/screenshots.ts'

const EXAMPLE = 'examples/scenarios/host-no-bookings.yaml'
const host = personas.find((persona) => persona.key === 'host')!

test.describe('with the default scenario', () => {
  test('answers the page and journals each request', async ({ page, sandbox }) => {
    await page.goto('/?worker=off')
    await page.getByTestId('persona').selectOption(host.idpCode)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByTestId('account-status')).toContainText('Payouts enabled')
    const operations = sandbox.journal.list().map((entry) => [entry.operationId, entry.status])
    expect(operations).toEqual(
      expect.arrayContaining([
        ['completeIdpSignIn', 201],
        ['refreshToken', 200],
        ['getAccountStatus', 200],
      ]),
    )
    expect(await page.evaluate(() => window.__sandbox)).toBeUndefined()
  })

  test('writes to the test’s own state, which the test can read', async ({ page, sandbox }) => {
    await page.goto('/?worker=off')
    await page.getByTestId('persona').selectOption(host.idpCode)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByTestId(`decline-${anchors.bookings.pending}`).click()
    await expect(page.getByTestId(`booking-${anchors.bookings.pending}`)).toHaveCount(0)
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
    expect(store.notifications.all().at(-1)).toMatchObject({
      userId: 'usr_guest',
      kind: 'booking.declined',
    })
  })

  test('starts every test from the scenario, whatever ran before', async ({ sandbox }) => {
    const store = await sandbox.store()
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('pending')
    expect(sandbox.journal.list()).toEqual([])
  })

  test('resets the test’s sandbox to a saved snapshot, and refuses a scenario’s name', async ({
    sandbox,
  }) => {
    await sandbox.reset({ scenario: 'empty' })
    await sandbox.snapshots.save('blank')
    await expect(sandbox.snapshots.save('default')).rejects.toMatchObject({ status: 409 })
    await sandbox.reset()
    expect((await sandbox.store()).bookings.has(anchors.bookings.pending)).toBe(true)
    expect(await sandbox.reset({ snapshot: 'blank' })).toMatchObject({ snapshot: 'blank' })
    expect((await sandbox.store()).bookings.has(anchors.bookings.pending)).toBe(false)
  })

  test('lets a test override a handler', async ({ page, network, sandbox }) => {
    network.use(
      http.get('*/payprov/account-status', () =>
        HttpResponse.json({
          payouts_enabled: false,
          charges_enabled: false,
          disabled_reason: 'rejected.fraud',
          requirements: {
            past_due: [],
            currently_due: [],
            pending_verification: [],
            eventually_due: [],
          },
        }),
      ),
    )
    await page.goto('/?worker=off')
    await page.getByTestId('persona').selectOption(host.idpCode)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByTestId('disabled-reason')).toHaveText('Disabled: rejected.fraud')
    const operations = sandbox.journal.list().map((entry) => entry.operationId)
    expect(operations).toContain('refreshToken')
    expect(operations).not.toContain('getAccountStatus')
  })

  test('keeps the HttpOnly refresh cookie, so a cookie-only refresh works', async ({
    page,
    context,
    sandbox,
  }) => {
    await page.goto('/?worker=off')
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
    const result = await page.evaluate(async (code) => {
      const post = (url: string, body: unknown) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const signIn = await post('/auth/idp/complete', { code })
      const refresh = await post('/auth/refresh?dryRun=true', {})
      return {
        signIn: signIn.status,
        refresh: refresh.status,
        body: await refresh.json(),
        visibleToScripts: document.cookie,
      }
    }, host.idpCode)
    expect(result).toMatchObject({ signIn: 201, refresh: 200, visibleToScripts: '' })
    expect(result.body.accessToken).toEqual(expect.any(String))
    const cookies = await context.cookies()
    expect(cookies).toEqual([
      expect.objectContaining({
        name: 'refresh_token',
        value: host.refreshToken,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
      }),
    ])
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      operationId: 'refreshToken',
      status: 200,
    })
  })
})

test.describe('with the empty scenario', () => {
  test.use({ sandboxScenario: 'empty' })

  test('starts from the scenario the test chose', async ({ page, sandbox }, testInfo) => {
    const store = await sandbox.store()
    expect(store.bookings.count()).toBe(0)
    expect(store.snapshot.scenario).toBe('empty')
    await page.goto('/?worker=off')
    await page.getByTestId('persona').selectOption('idp_guest')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByTestId('account-status')).toHaveText('No payment account')
    await expect(page.getByTestId('no-notifications')).toBeVisible()
    await keepScreenshot(page, testInfo, 'fixture-empty-scenario')
  })
})

test.describe('with recorded answers (sandboxReplay)', () => {
  // The same recording the example page gives its worker with `?replay=staging`.
  test.use({ sandboxReplay: stagingReplay })

  test('answers a recorded request from the recording, the rest from the model', async ({
    page,
    sandbox,
  }) => {
    await page.goto('/?worker=off')
    await page.getByTestId('persona').selectOption(host.idpCode)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByTestId('disabled-reason')).toHaveText('Disabled: recorded.on_staging')
    const operations = sandbox.journal.list().map((entry) => [entry.operationId, entry.status])
    expect(operations).toEqual(
      expect.arrayContaining([
        ['completeIdpSignIn', 201],
        ['refreshToken', 200],
        ['getAccountStatus', 200],
      ]),
    )
    expect(sandbox.replay?.recordings.map((recording) => recording.name)).toEqual([
      'getAccountStatus/recordedOnStaging',
    ])
  })

  test('finds nothing wrong with a recording that keeps the contract', async ({
    sandboxReplayProblems,
  }) => {
    expect(sandboxReplayProblems).toEqual([])
  })
})

test.describe('with a recorded answer that breaks the contract', () => {
  test.use({ sandboxReplay: brokenReplay })

  test('names it in sandboxReplayProblems, and still answers with it', async ({
    page,
    sandboxReplayProblems,
  }) => {
    expect(sandboxReplayProblems).toEqual([
      "getAccountStatus/recordedOnStaging: the 200 answer of getAccountStatus breaks the contract: body must have required property 'payouts_enabled'",
    ])
    await page.goto('/?worker=off')
    const answer = await page.evaluate(async () => {
      const response = await fetch('/payprov/account-status')
      return { status: response.status, body: await response.json() }
    })
    expect(answer).toEqual({ status: 200, body: brokenAccountStatus })
  })
})

test.describe('a page that starts the sandbox worker itself', () => {
  test('runs unchanged: the worker stands aside and the fixture answers', async ({
    page,
    sandbox,
  }) => {
    // No `?worker=off`: the page calls `startSandboxWorker()` as in development.
    await page.goto('/')
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
    expect(await page.evaluate(() => window.__sandbox?.answeredBy)).toBe('playwright')
    await page.getByTestId('persona').selectOption(host.idpCode)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByTestId(`decline-${anchors.bookings.pending}`).click()
    await expect(page.getByTestId(`booking-${anchors.bookings.pending}`)).toHaveCount(0)
    // The write landed in the test's sandbox, not in one inside the page.
    await expect
      .poll(async () => (await sandbox.store()).bookings.get(anchors.bookings.pending)?.status)
      .toBe('declined')
    expect(sandbox.journal.list().map((entry) => entry.operationId)).toContain('declineBooking')
  })
})

test.describe('a page that asks for the sandbox devtools', () => {
  test('shows no panel under the fixture: the tests see the app alone', async ({ page }) => {
    await page.goto('/?devtools')
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
    expect(await page.evaluate(() => window.__sandbox?.devtools)).toBeUndefined()
    await expect(page.locator('platform-sandbox-devtools')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /sandbox devtools/i })).toHaveCount(0)
  })
})

test.describe('with a scenario file', () => {
  test.use({
    sandboxScenarios: [
      { file: parseScenarioText(readFileSync(EXAMPLE, 'utf8'), EXAMPLE), source: EXAMPLE },
    ],
    sandboxScenario: 'host-no-bookings',
  })

  test('starts the test’s sandbox from the file', async ({ page, sandbox }) => {
    await page.goto('/?worker=off')
    await page.getByTestId('persona').selectOption(host.idpCode)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByTestId('notification-ntf_canal_loft_live')).toBeVisible()
    const store = await sandbox.store()
    expect(store.bookings.count()).toBe(0)
    expect(store.users.get('usr_host')?.displayName).toBe('Hannah de Vries')
  })
})

test.describe('fault rules', () => {
  test("a gateway's 503 reaches the page with its Retry-After", async ({ page, sandbox }) => {
    const added = await sandbox.handle({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/payprov/account-status', status: 503, retryAfterSeconds: 3 }),
    })
    expect(added.status).toBe(201)
    await page.goto('/?worker=off')
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
    const outcome = await page.evaluate(async () => {
      const response = await fetch('/payprov/account-status')
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: await response.json(),
      }
    })
    expect(outcome).toEqual({
      status: 503,
      retryAfter: '3',
      body: { message: 'Fault rule f1 answered 503', code: 'SERVICE_UNAVAILABLE' },
    })
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      path: '/payprov/account-status',
      status: 503,
      fault: 'f1',
      gateway: true,
    })
  })

  test('a network-error rule makes the request fail in the page', async ({ page, sandbox }) => {
    const added = await sandbox.handle({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '/payprov/account-status', networkError: true }),
    })
    expect(added.status).toBe(201)
    await page.goto('/?worker=off')
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
    const outcome = await page.evaluate(() =>
      fetch('/payprov/account-status').then(
        (response) => `answered ${response.status}`,
        () => 'failed',
      ),
    )
    expect(outcome).toBe('failed')
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      path: '/payprov/account-status',
      fault: expect.stringMatching(/.+/),
    })
  })
})
