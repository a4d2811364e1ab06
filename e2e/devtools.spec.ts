/**
 * The sandbox devtools in the example page (`startSandboxWorker({ devtools: loader })`, the
 * page's `?devtools`): folded to a button, opened over the app, driven from the keyboard,
 * isolated from the app's styles, and absent from a page that does not ask for it.
 */
import { expect, type Page, test } from '@playwright/test'
import { anchors } from '../fixtures/anchors.ts'
import { keepScreenshot } from './support/screenshots.ts'

async function open(page: Page, query: string): Promise<void> {
  await page.goto(`/${query}`)
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true')
}

const foldButton = (page: Page) => page.getByRole('button', { name: 'Open the sandbox devtools' })
const drawer = (page: Page) => page.getByRole('complementary', { name: 'Sandbox devtools' })

async function openPanel(page: Page, tab?: string) {
  await foldButton(page).click()
  const panel = drawer(page)
  await expect(panel).toBeVisible()
  if (tab) await panel.getByRole('tab', { name: tab }).click()
  return panel
}

test('a developer signs in as host, adds a 503 rule and sees the error and the journal, in the page', async ({
  page,
}, testInfo) => {
  await open(page, '?devtools')
  await expect(foldButton(page)).toHaveAccessibleName(/sandbox/i)
  await expect(drawer(page)).toHaveCount(0)
  await keepScreenshot(page, testInfo, 'devtools-folded', { fullPage: false })

  const panel = await openPanel(page, 'Personas')
  await panel.getByRole('button', { name: 'Sign in as host', exact: true }).click()
  await expect(panel.getByRole('status')).toContainText('Signed in as')
  // The app took the sign-in up through its own cookie-only refresh.
  await expect(page.getByTestId('signed-in')).toContainText('Signed in as')
  const decline = page.getByTestId(`decline-${anchors.bookings.pending}`)
  await expect(decline).toBeVisible()

  await panel.getByRole('tab', { name: 'Faults' }).click()
  await panel.getByLabel('Path pattern').fill('/bookings/:id/decline')
  await panel.getByLabel('Status').selectOption('503')
  await panel.getByRole('button', { name: 'Add rule' }).click()
  await expect(panel.getByRole('button', { name: 'Remove rule f1' })).toBeVisible()
  await expect(panel.getByText('status 503 (gateway), Retry-After')).toHaveCount(0)
  await expect(panel.getByText('status 503 (gateway)')).toBeVisible()

  await decline.click()
  await expect(page.getByTestId('message')).toHaveText(
    `Declining ${anchors.bookings.pending} failed: Service unavailable: 503 SERVICE_UNAVAILABLE: Fault rule f1 answered 503. Try again in 1 s.`,
  )
  await expect(page.getByTestId('message')).toHaveClass(/error/)
  const status = await page.evaluate(
    async (id) => (await window.__sandbox?.sandbox.store())?.bookings.get(id)?.status,
    anchors.bookings.pending,
  )
  expect(status).toBe('pending')

  await panel.getByRole('tab', { name: 'Requests' }).click()
  const row = panel.getByTestId('journal').getByRole('row').nth(1)
  await expect(row).toContainText(`POST /bookings/${anchors.bookings.pending}/decline`)
  await expect(row).toContainText('503')
  await expect(row.getByRole('cell').last()).toHaveText('f1 gateway')
  // The app's error state and the journal, side by side.
  await page.getByTestId('message').scrollIntoViewIfNeeded()
  await keepScreenshot(page, testInfo, 'devtools-open', { fullPage: false })
})

test('opens, moves between panels and closes from the keyboard', async ({ page }) => {
  await open(page, '?devtools')
  await foldButton(page).focus()
  await page.keyboard.press('Enter')
  const panel = drawer(page)
  await expect(panel.getByRole('button', { name: 'Close the sandbox devtools' })).toBeFocused()

  await page.keyboard.press('Tab')
  await expect(panel.getByRole('tab', { name: 'Session' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  const personas = panel.getByRole('tab', { name: 'Personas' })
  await expect(personas).toBeFocused()
  await expect(personas).toHaveAttribute('aria-selected', 'true')
  await expect(panel.getByRole('button', { name: 'Sign in as admin' })).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(panel.getByRole('button', { name: 'Sign in as admin' })).toBeFocused()

  await page.keyboard.press('Escape')
  await expect(drawer(page)).toHaveCount(0)
  await expect(foldButton(page)).toBeFocused()
})

test('gives every control of every panel an accessible name', async ({ page }) => {
  await open(page, '?devtools')
  const panel = await openPanel(page)
  const tabs = await panel.getByRole('tab').allTextContents()
  expect(tabs).toEqual(['Session', 'Personas', 'Faults', 'Clock', 'Requests', 'Collections'])
  for (const tab of tabs) {
    await panel.getByRole('tab', { name: tab }).click()
    const shown = panel.getByRole('tabpanel', { name: tab })
    await expect(shown).toBeVisible()
    // Wait for the panel's data, so that rows of buttons are there to check.
    if (tab === 'Personas') await expect(shown.getByRole('button').first()).toBeVisible()
    const controls = shown.locator('button, input, select, textarea')
    expect(await controls.count(), tab).toBeGreaterThan(0)
    for (const control of await controls.all()) {
      await expect(
        control,
        `${tab}: ${await control.evaluate((e) => e.outerHTML)}`,
      ).toHaveAccessibleName(/\S/)
    }
  }
})

test("keeps the app's styles and its own apart", async ({ page }) => {
  await open(page, '?devtools')
  await page.addStyleTag({ content: 'button { color: rgb(255, 0, 0) !important; }' })
  const appHeading = page.getByRole('heading', { name: 'Platform sandbox example' })
  const before = await appHeading.evaluate((e) => getComputedStyle(e).fontSize)
  const panel = await openPanel(page)

  const appButton = page.getByRole('button', { name: 'Reset sandbox' })
  expect(await appButton.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(255, 0, 0)')
  const close = panel.getByRole('button', { name: 'Close the sandbox devtools' })
  expect(await close.evaluate((e) => getComputedStyle(e).color)).not.toBe('rgb(255, 0, 0)')
  // The panel's own heading rules do not reach the app's heading.
  expect(await appHeading.evaluate((e) => getComputedStyle(e).fontSize)).toBe(before)
  expect(
    await panel.evaluate((e) => (e.getRootNode() as ShadowRoot).host.tagName.toLowerCase()),
  ).toBe('platform-sandbox-devtools')
})

test('a page that does not ask for the devtools loads none of their code', async ({ page }) => {
  const scripts = async (query: string) => {
    const bodies: Promise<string>[] = []
    const listener = (response: import('@playwright/test').Response) => {
      if (response.request().resourceType() === 'script' && response.status() === 200) {
        bodies.push(response.text())
      }
    }
    page.on('response', listener)
    await open(page, query)
    await page.waitForLoadState('networkidle')
    page.off('response', listener)
    return Promise.all(bodies)
  }
  const without = await scripts('')
  expect(without.length).toBeGreaterThan(0)
  expect(without.filter((text) => text.includes('platform-sandbox-devtools'))).toEqual([])
  await expect(foldButton(page)).toHaveCount(0)

  const withDevtools = await scripts('?devtools')
  expect(withDevtools.filter((text) => text.includes('platform-sandbox-devtools'))).toHaveLength(1)
  await expect(foldButton(page)).toBeVisible()
})
