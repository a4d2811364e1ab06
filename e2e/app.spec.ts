/**
 * The example page with the sandbox in the browser: every API call is answered by
 * msw's Service Worker, nothing runs behind the API paths.
 */
import { expect, type Page, test } from '@playwright/test'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { runThroughWorker } from './support/run-in-page.ts'
import { keepScreenshot } from './support/screenshots.ts'

const API_PATH = /\/(auth|payprov|users|bookings|notifications|__sandbox)\//

async function open(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`)
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
}

async function signIn(page: Page, idpCode: string): Promise<void> {
  await page.getByTestId('persona').selectOption(idpCode)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByTestId('signed-in')).toBeVisible()
}

async function bookingStatus(page: Page, id: string): Promise<string | undefined> {
  return page.evaluate(async (bookingId) => {
    const store = await window.__sandbox?.sandbox.store()
    return store?.bookings.get(bookingId)?.status
  }, id)
}

test('signs in, follows, declines and archives, all answered by the worker', async ({
  page,
}, testInfo) => {
  const apiResponses: { url: string; fromServiceWorker: boolean }[] = []
  page.on('response', (response) => {
    if (API_PATH.test(new URL(response.url()).pathname)) {
      apiResponses.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker() })
    }
  })
  await open(page)
  await signIn(page, 'idp_host')
  await expect(page.getByTestId('signed-in')).toHaveText('Signed in as Hugo Host (usr_host)')
  await expect(page.getByTestId('account-status')).toContainText('Payouts enabled')

  await page.getByTestId('follow').click()
  await expect(page.getByTestId('message')).toHaveText('Now following usr_guest')
  await page.getByTestId('follow').click()
  await expect(page.getByTestId('message')).toContainText('409 CONFLICT')

  await page.getByTestId(`decline-${anchors.bookings.pending}`).click()
  await expect(page.getByTestId(`booking-${anchors.bookings.pending}`)).toHaveCount(0)
  expect(await bookingStatus(page, anchors.bookings.pending)).toBe('declined')

  const notification = anchors.notifications.hostUnarchived
  await page.getByTestId(`archive-${notification}`).click()
  await expect(page.getByTestId(`notification-${notification}`)).toHaveCount(0)

  await keepScreenshot(page, testInfo, 'example-page')
  expect(apiResponses.length).toBeGreaterThan(8)
  expect(apiResponses.filter((response) => !response.fromServiceWorker)).toEqual([])
})

test('shows why a restricted account is disabled', async ({ page }) => {
  await open(page)
  await signIn(page, 'idp_host_restricted')
  await expect(page.getByTestId('disabled-reason')).toHaveText('Disabled: requirements.past_due')
  await expect(page.getByTestId('account-status')).toContainText('Payouts disabled')
})

test('keeps the state and the sign-in across a reload, until reset', async ({ page }) => {
  const booking = anchors.bookings.pending
  await open(page)
  await signIn(page, 'idp_host')
  await page.getByTestId(`decline-${booking}`).click()
  await expect(page.getByTestId(`booking-${booking}`)).toHaveCount(0)

  await page.reload()
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
  await expect(page.getByTestId('signed-in')).toBeVisible()
  await expect(page.getByTestId('account-status')).toBeVisible()
  await expect(page.getByTestId(`booking-${booking}`)).toHaveCount(0)
  expect(await bookingStatus(page, booking)).toBe('declined')

  await page.getByTestId('reset').click()
  await expect(page.getByTestId(`booking-${booking}`)).toBeVisible()
  await page.reload()
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
  await expect(page.getByTestId(`booking-${booking}`)).toBeVisible()
  expect(await bookingStatus(page, booking)).toBe('pending')
})

test('starts the scenario the page asks for and resets to another from the page', async ({
  page,
}) => {
  await open(page, '?scenario=empty')
  expect(await page.evaluate(() => window.__sandbox?.sandbox.settings.scenario)).toBe('empty')
  expect(await bookingStatus(page, anchors.bookings.pending)).toBeUndefined()
  await page.evaluate(() => window.__sandbox?.reset({ scenario: 'default' }))
  expect(await bookingStatus(page, anchors.bookings.pending)).toBe('pending')
})

test('a bare reset returns to the scenario the page started with, also after a reload', async ({
  page,
}) => {
  const booking = anchors.bookings.pending
  await open(page, '?scenario=empty')
  await page.evaluate(() => window.__sandbox?.reset({ scenario: 'default' }))
  expect(await bookingStatus(page, booking)).toBe('pending')

  await page.reload()
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
  expect(await bookingStatus(page, booking)).toBe('pending')
  expect(await page.evaluate(() => window.__sandbox?.sandbox.settings.scenario)).toBe('empty')

  const bare = await page.evaluate(() => window.__sandbox?.reset())
  expect(bare).toMatchObject({ session: 'default', scenario: 'empty' })
  expect(await bookingStatus(page, booking)).toBeUndefined()
})

test('resets to a saved snapshot from the page, and refuses a snapshot named like a scenario', async ({
  page,
}) => {
  const booking = anchors.bookings.pending
  await open(page, '?scenario=empty')
  const saved = await page.evaluate(async () => {
    const sandbox = window.__sandbox!.sandbox
    await sandbox.snapshots.save('blank')
    const taken = await sandbox.snapshots.save('empty').then(
      () => 'saved',
      (error: { status?: number }) => error.status,
    )
    return { taken, names: sandbox.snapshots.list().map((info) => info.name) }
  })
  expect(saved).toEqual({ taken: 409, names: ['blank'] })
  await page.evaluate(() => window.__sandbox?.reset({ scenario: 'default' }))
  expect(await bookingStatus(page, booking)).toBe('pending')

  const result = await page.evaluate(() => window.__sandbox?.reset({ snapshot: 'blank' }))
  expect(result).toMatchObject({ session: 'default', scenario: 'empty', snapshot: 'blank' })
  expect(await bookingStatus(page, booking)).toBeUndefined()
})

test('runs plain requests through the worker, cookies included', async ({ page }) => {
  await open(page)
  const host = personas.find((persona) => persona.key === 'host')!
  const json = { 'content-type': 'application/json' }
  const [health, noCookie, withCookie, signInAnswer, unknown] = await runThroughWorker(page, [
    { method: 'GET', url: '/__sandbox/health', headers: {} },
    { method: 'POST', url: '/auth/refresh?dryRun=true', headers: json, body: '{}' },
    {
      method: 'POST',
      url: '/auth/refresh?dryRun=true',
      headers: { ...json, cookie: `refresh_token=${host.refreshToken}` },
      body: '{}',
    },
    {
      method: 'POST',
      url: '/auth/idp/complete',
      headers: json,
      body: JSON.stringify({ code: host.idpCode }),
    },
    { method: 'GET', url: '/__sandbox/no-such-call', headers: {} },
  ])
  expect(health).toMatchObject({ status: 200, body: { status: 'ok' } })
  expect(noCookie).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  expect(withCookie?.status).toBe(200)
  expect(signInAnswer).toMatchObject({ status: 201, body: { success: true } })
  expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })

  const token = (withCookie!.body as { accessToken: string }).accessToken
  const [status, decline, dryRun] = await runThroughWorker(page, [
    {
      method: 'GET',
      url: '/payprov/account-status',
      headers: { authorization: `Bearer ${token}` },
    },
    {
      method: 'POST',
      url: `/bookings/${anchors.bookings.pending}/decline?dryRun=true`,
      headers: { ...json, authorization: `Bearer ${token}` },
      body: '{}',
    },
    {
      method: 'POST',
      url: `/bookings/${anchors.bookings.declined}/decline?dryRun=true`,
      headers: { ...json, authorization: `Bearer ${token}` },
      body: '{}',
    },
  ])
  expect(status).toMatchObject({ status: 200, body: { payouts_enabled: true } })
  expect(decline).toMatchObject({ status: 201, body: { success: true } })
  expect(dryRun).toMatchObject({ status: 409, body: { code: 'CONFLICT' } })
  expect(await bookingStatus(page, anchors.bookings.pending)).toBe('pending')
})

test('starts the worker from the README example scenario file', async ({ page }) => {
  await open(page, '?scenario=host-no-bookings')
  await signIn(page, 'idp_host')
  await expect(page.getByTestId('notification-ntf_canal_loft_live')).toContainText(
    'Canal Loft is live',
  )
  const state = await page.evaluate(async () => {
    const store = await window.__sandbox!.sandbox.store()
    return { bookings: store.bookings.count(), venues: store.venues.all().map((venue) => venue.id) }
  })
  expect(state).toEqual({ bookings: 0, venues: ['ven_canal_loft'] })
})

test('answers a recorded request from the recording given to the worker, the rest from the model', async ({
  page,
}) => {
  await page.goto('/?replay=staging')
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
  await page.getByTestId('persona').selectOption('idp_host')
  await page.getByRole('button', { name: 'Sign in' }).click()
  // The host's account is fully enabled in the model; the recording says otherwise.
  await expect(page.getByTestId('disabled-reason')).toHaveText('Disabled: recorded.on_staging')
  const journal = await page.evaluate(async () =>
    (window.__sandbox?.sandbox.journal.list() ?? []).map((entry) => [
      entry.operationId,
      entry.status,
    ]),
  )
  expect(journal).toEqual(
    expect.arrayContaining([
      ['completeIdpSignIn', 201],
      ['refreshToken', 200],
      ['getAccountStatus', 200],
    ]),
  )
})

test('checks the recordings given to the worker against the contract, when asked to', async ({
  page,
}) => {
  await page.goto('/?replay=staging')
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
  expect(await page.evaluate(() => window.__sandbox?.replayProblems)).toEqual([])

  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  await page.goto('/?replay=broken')
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
  const problem =
    "getAccountStatus/recordedOnStaging: the 200 answer of getAccountStatus breaks the contract: body must have required property 'payouts_enabled'"
  expect(await page.evaluate(() => window.__sandbox?.replayProblems)).toEqual([problem])
  expect(warnings.join('\n')).toContain(problem)
})
