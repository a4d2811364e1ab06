/**
 * The Storybook stories, built statically and served by the `webServer` of the
 * Playwright config: msw-storybook-addon's worker answers from the sandbox.
 */
import { expect, type Page, test } from '@playwright/test'
import { anchors } from '../fixtures/anchors.ts'
import { keepScreenshot } from './support/screenshots.ts'
import { MANAGER_LOAD_MS, STORYBOOK_URL } from './support/storybook.ts'

async function openStory(page: Page, id: string) {
  await page.goto(`${STORYBOOK_URL}/iframe.html?id=${id}&viewMode=story`)
  return page.locator('#storybook-root')
}

test('renders the host story from the sandbox', async ({ page }, testInfo) => {
  const root = await openStory(page, 'account-accountpanel--host')
  await expect(root.getByTestId('account-status')).toContainText('Payouts enabled')
  await expect(
    root.getByTestId(`notification-${anchors.notifications.hostUnarchived}`),
  ).toBeVisible()
  await keepScreenshot(root.getByTestId('account-panel'), testInfo, 'storybook-host')
})

test('renders the scenario and persona a story names', async ({ page }, testInfo) => {
  const restricted = await openStory(page, 'account-accountpanel--restricted-host')
  await expect(restricted.getByTestId('disabled-reason')).toHaveText(
    'Disabled: requirements.past_due',
  )
  const empty = await openStory(page, 'account-accountpanel--guest-in-empty-scenario')
  await expect(empty.getByTestId('account-status')).toHaveText('No payment account')
  await expect(empty.getByTestId('no-notifications')).toBeVisible()
  await keepScreenshot(empty.getByTestId('account-panel'), testInfo, 'storybook-empty-guest')
})

test('starts each story from fresh state', async ({ page }) => {
  await page.goto(`${STORYBOOK_URL}/?path=/story/account-accountpanel--host`)
  const preview = page.frameLocator('#storybook-preview-iframe')
  const notification = preview.getByTestId(`notification-${anchors.notifications.hostUnarchived}`)
  // Storybook's manager loads first, then its preview frame and the worker: on a busy machine
  // that takes longer than one answer.
  await expect(notification).toBeVisible({ timeout: MANAGER_LOAD_MS })
  await preview.getByTestId(`archive-${anchors.notifications.hostUnarchived}`).click()
  await expect(notification).toHaveCount(0)

  // Another story, then back: the loader resets the sandbox each time.
  await page.locator('#account-accountpanel--restricted-host').click()
  await expect(preview.getByTestId('disabled-reason')).toBeVisible()
  await page.locator('#account-accountpanel--host').click()
  await expect(notification).toBeVisible()
})

test('renders a story from the example scenario file', async ({ page }) => {
  const root = await openStory(page, 'account-accountpanel--host-without-bookings')
  await expect(root.getByTestId('notification-ntf_canal_loft_live')).toContainText(
    'Canal Loft is live',
  )
})

test('renders a story from a snapshot exported by the server', async ({ page }) => {
  const root = await openStory(page, 'account-accountpanel--guest-followed-by-host')
  await expect(root.getByTestId('notification-ntf_n0001')).toContainText(
    'Hugo Host started following you.',
  )
})

test('mounts the sandbox devtools over a story that asks for them, folded then open', async ({
  page,
}, testInfo) => {
  const root = await openStory(page, 'account-accountpanel--host-with-devtools')
  await expect(root.getByTestId('account-status')).toContainText('Payouts enabled')
  const fold = page.getByRole('button', { name: 'Open the sandbox devtools' })
  await expect(fold).toBeVisible()
  await keepScreenshot(page, testInfo, 'storybook-devtools-folded', { fullPage: false })

  await fold.click()
  const panel = page.getByRole('complementary', { name: 'Sandbox devtools' })
  await panel.getByRole('tab', { name: 'Collections' }).click()
  await panel.getByRole('button', { name: /^bookings \d+$/ }).click()
  await expect(panel.getByRole('table').filter({ hasText: 'bookings:' })).toContainText(
    anchors.bookings.pending,
  )
  // The story's own requests are in the journal of the page.
  await panel.getByRole('tab', { name: 'Requests' }).click()
  await expect(panel.getByTestId('journal')).toContainText('GET /payprov/account-status')
  await keepScreenshot(page, testInfo, 'storybook-devtools-open', { fullPage: false })

  // A story without the parameter has no panel.
  await openStory(page, 'account-accountpanel--host')
  await expect(page.getByRole('button', { name: /sandbox devtools/i })).toHaveCount(0)
})
