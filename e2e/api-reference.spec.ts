/**
 * `/__sandbox/docs`: the merged contract rendered by Scalar from the installed
 * package, with every request that leaves the machine blocked: rendered in the first
 * screen, without Scalar's online services, its example requests answered by the
 * sandbox that serves it.
 */
import { expect, type Page, test } from '@playwright/test'
import { type RunningServer, startServer } from '../server/start-server.ts'
import { keepScreenshot } from './support/screenshots.ts'

let server: RunningServer

test.beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true })
})
test.afterAll(async () => {
  await server.close()
})

test.use({ viewport: { width: 1400, height: 1000 } })

/** Opens the reference with every request that would leave the machine aborted and listed. */
async function openOffline(page: Page): Promise<string[]> {
  const blocked: string[] = []
  await page.context().route('**/*', (route) => {
    const { hostname } = new URL(route.request().url())
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue()
    blocked.push(route.request().url())
    return route.abort('internetdisconnected')
  })
  await page.goto(`${server.url}/__sandbox/docs`)
  return blocked
}

test('renders the merged document offline', async ({ page }, testInfo) => {
  const blocked = await openOffline(page)
  await expect(page.getByRole('heading', { name: /Platform Backend API/ }).first()).toBeVisible({
    timeout: 20_000,
  })
  await page.getByRole('button', { name: 'Open Group - Bookings' }).click()
  await expect(page.getByRole('link', { name: /Decline a booking/ }).first()).toBeVisible()
  await page.getByRole('button', { name: 'Open Group - Sandbox control' }).click()
  await expect(page.getByRole('link', { name: /Add a fault rule to the session/ })).toBeVisible()
  await keepScreenshot(page, testInfo, 'api-reference')
  expect(blocked, 'requests that left the machine').toEqual([])
})

test('shows the introduction and the first operations in the first screen', async ({
  page,
}, testInfo) => {
  const blocked = await openOffline(page)
  const title = page.getByRole('heading', { name: 'Platform Backend API', exact: true })
  await expect(title).toBeInViewport({ timeout: 20_000 })
  await expect(page.getByText(/as published by the backend team/).first()).toBeInViewport()
  // The first operation: in the navigation, in the tag's list, and its own section begins.
  await expect(
    page.getByRole('link', { name: /Exchange a refresh token for a new access token/ }).first(),
  ).toBeInViewport()
  await expect(
    page.getByRole('heading', { name: /Exchange a refresh token for a new access token/ }),
  ).toBeInViewport()
  await expect(page.locator('.introduction-section')).toHaveCount(1)
  // No placeholder bars are left anywhere on the page.
  await expect(page.locator('.introduction-loading, .introduction-skeleton')).toHaveCount(0)
  // Scalar's online services are not offered.
  for (const online of [/Ask AI/, /Generate MCP/, /Developer Tools/, /Deploy/]) {
    await expect(page.getByText(online)).toHaveCount(0)
  }
  await expect(
    page.getByRole('button', { name: /Ask AI|Generate MCP|Configure|Share/ }),
  ).toHaveCount(0)
  await keepScreenshot(page, testInfo, 'api-reference-first-screen', { fullPage: false })
  expect(blocked, 'requests that left the machine').toEqual([])
})

test('sends its example requests to the sandbox that serves it', async ({ page }, testInfo) => {
  await openOffline(page)
  await expect(
    page.getByRole('heading', { name: 'Platform Backend API', exact: true }),
  ).toBeVisible({
    timeout: 20_000,
  })
  // The one server offered is this sandbox.
  await expect(page.getByText(server.url, { exact: true }).first()).toBeVisible()

  await page.getByRole('button', { name: 'Open Group - OAuth' }).click()
  await page
    .getByRole('link', { name: /Complete a sign-in through the identity provider/ })
    .first()
    .click()
  await page.getByRole('button', { name: /Test Request\s*\(post \/auth\/idp\/complete\)/ }).click()
  const send = page.getByRole('button', {
    name: `Send post request to ${server.url}/auth/idp/complete`,
  })
  await send.click()
  await expect
    .poll(() =>
      server.sandbox.journal.list().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
    )
    .toContain('POST /auth/idp/complete 201')
  await expect(page.getByText('201 Created')).toBeVisible()
  await keepScreenshot(page, testInfo, 'api-reference-example-request', { fullPage: false })
})
