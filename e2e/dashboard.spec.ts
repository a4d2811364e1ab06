/**
 * The dashboard at `/__sandbox/` on a standalone server this file starts: reset,
 * sign in as a persona, add a fault and see it in the live journal, advance the clock.
 * Every test works in a session of its own.
 */
import { expect, type Page, test } from '@playwright/test'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { SESSION_HEADER } from '../mocks/sandbox-client/sandbox-client.ts'
import { type RunningServer, startServer } from '../server/start-server.ts'
import { keepScreenshot } from './support/screenshots.ts'

let server: RunningServer
const host = personas.find((persona) => persona.key === 'host')!

test.beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true })
})
test.afterAll(async () => {
  await server.close()
})

async function openDashboard(page: Page, session: string) {
  await page.goto(`${server.url}/__sandbox/?session=${session}`)
  await expect(page.getByRole('heading', { name: 'Platform API sandbox' })).toBeVisible()
  await expect(page.getByRole('heading', { name: /Requests live/ })).toBeVisible()
}

async function call(path: string, session: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', [SESSION_HEADER]: session, ...init.headers },
  })
}

test('resets the session to another scenario', async ({ page }, testInfo) => {
  await openDashboard(page, 'dash-reset')
  const bookings = page.getByRole('button', { name: /^bookings \d+$/ })
  await expect(bookings).not.toHaveText(/bookings 0$/)
  await page.getByLabel('Scenario').selectOption('empty')
  await page.getByRole('button', { name: 'Reset session' }).click()
  await expect(page.getByRole('status').first()).toHaveText(
    /Session dash-reset reset to empty \(seed \d+\)/,
  )
  await expect(page.getByRole('button', { name: 'bookings 0' })).toBeVisible()
  const state = await (await call('/__sandbox/collections/bookings', 'dash-reset')).json()
  expect(state).toEqual([])
  await keepScreenshot(page, testInfo, 'dashboard-reset')
})

test('saves the session as a snapshot, and asks before replacing one another session saved', async ({
  page,
}) => {
  const name = 'dash-shared'
  const first = await call('/__sandbox/snapshots', 'dash-save-other', {
    method: 'POST',
    body: JSON.stringify({ name }),
  })
  expect(first.status).toBe(201)
  const savedBy = async () => {
    const answer = await call('/__sandbox/snapshots', 'dash-save')
    const list = (await answer.json()) as { name: string; session: string }[]
    return list.find((saved) => saved.name === name)?.session
  }
  await openDashboard(page, 'dash-save')
  await page.getByLabel('Snapshot name').fill(name)

  const asked: string[] = []
  page.once('dialog', (dialog) => {
    asked.push(dialog.message())
    void dialog.dismiss()
  })
  await page.getByRole('button', { name: 'Save snapshot' }).click()
  await expect(page.getByRole('status').first()).toHaveText(
    /^Snapshot dash-shared not saved: Snapshot name "dash-shared" is taken \(saved from session "dash-save-other"/,
  )
  expect(asked).toEqual([expect.stringMatching(/is taken[\s\S]*Replace snapshot "dash-shared"\?$/)])
  expect(await savedBy()).toBe('dash-save-other')

  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByRole('button', { name: 'Save snapshot' }).click()
  await expect(page.getByRole('status').first()).toHaveText(
    'Session dash-save saved as snapshot dash-shared',
  )
  expect(await savedBy()).toBe('dash-save')
  await expect(
    page.getByRole('option', { name: 'dash-shared (snapshot of default)' }),
  ).toBeAttached()
})

test('signs in as a persona and journals the sign-in', async ({ page }) => {
  await openDashboard(page, 'dash-sign-in')
  await page.getByRole('button', { name: 'Sign in as host', exact: true }).click()
  await expect(page.getByText(`Signed in as ${host.displayName}`)).toBeVisible()
  await expect(page.getByLabel(/Access token/)).toHaveValue(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/)
  const journal = page.getByTestId('journal')
  await expect(journal.getByRole('row').nth(1)).toContainText('POST /auth/refresh')
  await expect(journal.getByRole('row').nth(1)).toContainText('200')
  await expect(journal.getByRole('row').nth(2)).toContainText('POST /auth/idp/complete')
  const cookies = await page.context().cookies(server.url)
  expect(cookies.find((cookie) => cookie.name === 'refresh_token')?.value).toBe(host.refreshToken)
})

test('adds a fault rule and shows the faulted request in the live journal', async ({
  page,
}, testInfo) => {
  const session = 'dash-fault'
  await openDashboard(page, session)
  await page.getByLabel('Path pattern').fill('/bookings/:id/decline')
  await page.getByLabel('Status').selectOption('409')
  await page.getByLabel('Times').fill('1')
  await page.getByRole('button', { name: 'Add rule' }).click()
  await expect(page.getByRole('button', { name: 'Remove rule f1' })).toBeVisible()

  const faulted = await call(`/bookings/${anchors.bookings.pending}/decline`, session, {
    method: 'POST',
    body: '{}',
  })
  expect(faulted.status).toBe(409)
  const row = page.getByTestId('journal').getByRole('row').nth(1)
  await expect(row).toContainText(`POST /bookings/${anchors.bookings.pending}/decline`)
  await expect(row).toContainText('409')
  await expect(row.getByRole('cell').last()).toHaveText('f1')
  await keepScreenshot(page, testInfo, 'dashboard')

  await page.getByRole('button', { name: 'Remove rule f1' }).click()
  await expect(page.getByText('No fault rules')).toBeVisible()
})

test('says under a write what it changed, and shows the app’s requests only when asked', async ({
  page,
}) => {
  const session = 'dash-changes'
  await openDashboard(page, session)
  // A sign-in the MCP tools make on their own, then the app's decline.
  const refreshed = await call('/auth/refresh?dryRun=true', session, {
    method: 'POST',
    body: JSON.stringify({ refreshToken: host.refreshToken }),
    headers: { 'x-sandbox-client': 'mcp' },
  })
  const { accessToken } = (await refreshed.json()) as { accessToken: string }
  const declined = await call(`/bookings/${anchors.bookings.pending}/decline`, session, {
    method: 'POST',
    body: '{}',
    headers: { authorization: `Bearer ${accessToken}` },
  })
  expect(declined.status).toBe(201)
  const journal = page.getByTestId('journal')
  await expect(journal.getByRole('row').nth(1)).toContainText('POST /bookings/')
  await expect(journal.getByRole('row').nth(2)).toHaveText(
    `bookings ~${anchors.bookings.pending} {"status":["pending","declined"]} · notifications +ntf_n0001`,
  )
  await expect(journal).toContainText('POST /auth/refresh')
  await page.getByLabel("The app's requests only").check()
  await expect(journal).not.toContainText('POST /auth/refresh')
  await expect(journal).toContainText('POST /bookings/')
})

test("adds a gateway's 503 and marks the faulted request in the journal", async ({ page }) => {
  const session = 'dash-gateway'
  await openDashboard(page, session)
  await page.getByLabel('Path pattern').fill('/payprov/account-status')
  await page.getByLabel('Status').selectOption('503')
  await page.getByLabel('Retry-After (s)').fill('20')
  await page.getByRole('button', { name: 'Add rule' }).click()
  await expect(page.getByText('status 503 (gateway), Retry-After 20 s')).toBeVisible()

  const faulted = await call('/payprov/account-status', session, { method: 'GET' })
  expect(faulted.status).toBe(503)
  const row = page.getByTestId('journal').getByRole('row').nth(1)
  await expect(row).toContainText('GET /payprov/account-status')
  await expect(row).toContainText('503')
  await expect(row.getByRole('cell').last()).toHaveText('f1 gateway')
})

test('shows why a fault rule is refused', async ({ page }) => {
  await openDashboard(page, 'dash-bad-fault')
  await page.getByLabel('Path pattern').fill('/bookings/:id/accept')
  await page.getByRole('button', { name: 'Add rule' }).click()
  await expect(page.getByRole('alert')).toContainText('matches no operation')
})

test('advances the clock so a token expires', async ({ page }) => {
  const session = 'dash-clock'
  await openDashboard(page, session)
  const refreshed = await call('/auth/refresh?dryRun=true', session, {
    method: 'POST',
    body: JSON.stringify({ refreshToken: host.refreshToken }),
  })
  const { accessToken } = (await refreshed.json()) as { accessToken: string }
  const status = () =>
    call('/payprov/account-status', session, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
  expect((await status()).status).toBe(200)

  await page.getByLabel('Advance by (seconds)').fill('901')
  await page.getByRole('button', { name: 'Advance clock' }).click()
  await expect(page.getByTestId('clock-offset')).toHaveText('+901 s')
  expect((await status()).status).toBe(401)

  await page.getByRole('button', { name: 'Back to real time' }).click()
  await expect(page.getByText('(real time)')).toBeVisible()
  expect((await status()).status).toBe(200)
})

test('browses a collection: search and pages', async ({ page }) => {
  await openDashboard(page, 'dash-records')
  await page.getByRole('button', { name: /^bookings \d+$/ }).click()
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible()
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible()
  await page.getByLabel('Search bookings').fill(anchors.bookings.pending2)
  await expect(page.getByRole('table', { name: /bookings: 1 of \d+ records/ })).toBeVisible()
  await expect(page.getByText('Page 1 of 1')).toBeVisible()
})

test('works from the keyboard', async ({ page }) => {
  await openDashboard(page, 'dash-keyboard')
  await page.getByLabel('Session id').focus()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Open session' })).toBeFocused()
  await page.getByRole('button', { name: 'Sign in as guest' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByText('Signed in as')).toBeVisible()
})

test('journals none of its own requests: no /favicon.ico row in the session it shows', async ({
  page,
}) => {
  // The default session, as a QA engineer opening http://localhost:4010/__sandbox/ sees it.
  await page.goto(`${server.url}/__sandbox/`)
  await expect(page.getByRole('heading', { name: /Requests live/ })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('heading', { name: /Requests live/ })).toBeVisible()
  const entries = (await (await call('/__sandbox/requests', 'default')).json()) as {
    path: string
  }[]
  expect(entries.map((entry) => entry.path)).not.toContain('/favicon.ico')
  await expect(page.getByTestId('journal')).not.toContainText('favicon')
})

test('names the persona of every call whose caller is known, and says yes or no to dryRun on every row', async ({
  page,
}) => {
  const session = 'dash-persona'
  await openDashboard(page, session)
  await page.getByRole('button', { name: 'Sign in as host', exact: true }).click()
  await expect(page.getByText(`Signed in as ${host.displayName}`)).toBeVisible()
  // A cookie-only refresh, as an app signed in by the dashboard then makes it.
  const refreshed = await call('/auth/refresh', session, {
    method: 'POST',
    body: '{}',
    headers: { cookie: `refresh_token=${host.refreshToken}` },
  })
  expect(refreshed.status).toBe(200)
  // Request, Status, Persona and dryRun of each row, newest first (Time and ms left out).
  const journal = async () => {
    const rows = await page.getByTestId('journal').getByRole('row').all()
    const cells = await Promise.all(
      rows
        .slice(1)
        .map(async (row) => (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim())),
    )
    return cells.map(([, request, status, persona, , dryRun]) => [request, status, persona, dryRun])
  }
  // The cookie-only refresh, the dashboard's own dry-run refresh: both name the host.
  await expect.poll(journal).toContainEqual(['POST /auth/refresh', '200', 'host', 'no'])
  const rows = await journal()
  expect(rows).toContainEqual(['POST /auth/refresh', '200', 'host', 'yes'])
  expect(rows.map(([request]) => request)).toContain('POST /auth/idp/complete')
  // One clear value on every row.
  for (const [, , , dryRun] of rows) expect(['yes', 'no']).toContain(dryRun)
})

test('fits a 360 px window: sign-in buttons and the fault form within reach', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await openDashboard(page, 'dash-narrow')
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(360)
  for (const control of [
    page.getByRole('button', { name: 'Sign in as host', exact: true }),
    page.getByRole('button', { name: 'Sign in as applicant', exact: true }),
    page.getByLabel('Path pattern'),
    page.getByRole('button', { name: 'Add rule' }),
    page.getByRole('button', { name: 'Reset session' }),
  ]) {
    await control.scrollIntoViewIfNeeded()
    const box = (await control.boundingBox())!
    expect(box.x, String(control)).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width, String(control)).toBeLessThanOrEqual(360)
  }
  await page.getByRole('button', { name: 'Sign in as host', exact: true }).click()
  await expect(page.getByText(`Signed in as ${host.displayName}`)).toBeVisible()
})
