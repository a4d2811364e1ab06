/**
 * The dashboard of a sandbox with a control token (what a team's shared sandbox has): it asks
 * for the token once, keeps it for the tab, every panel sends it, and the live journal (read
 * with `fetch`, headers and all) shows the session's requests as they come.
 */
import { expect, test } from '@playwright/test'
import { anchors } from '../fixtures/anchors.ts'
import { SESSION_HEADER } from '../mocks/sandbox-client/sandbox-client.ts'
import { type RunningServer, startServer } from '../server/start-server.ts'

const TOKEN = 'dashboard-token-1'
let server: RunningServer

test.beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true, controlToken: TOKEN })
})
test.afterAll(async () => {
  await server.close()
})

test('asks for the token once, then every panel and the live journal work', async ({ page }) => {
  const session = 'dash-token'
  await page.goto(`${server.url}/__sandbox/?session=${session}`)
  await page.getByRole('textbox', { name: 'Control token' }).fill('not-the-token')
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await expect(page.getByRole('alert')).toHaveText(/That token was refused/)

  await page.getByRole('textbox', { name: 'Control token' }).fill(TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await expect(page.getByRole('heading', { name: /Requests live/ })).toBeVisible()
  // Panels that read the control API: the session's collections and the personas.
  await expect(page.getByRole('button', { name: /^bookings \d+$/ })).not.toHaveText('bookings 0')
  await expect(page.getByRole('button', { name: 'Sign in as host', exact: true })).toBeVisible()

  // The live journal: a request of the session, shown as it is answered.
  const declined = await fetch(`${server.url}/bookings/${anchors.bookings.pending}/decline`, {
    method: 'POST',
    headers: { [SESSION_HEADER]: session, 'content-type': 'application/json' },
    body: '{}',
  })
  expect(declined.status).toBe(401)
  const row = page.getByTestId('journal').getByRole('row').nth(1)
  await expect(row).toContainText(`POST /bookings/${anchors.bookings.pending}/decline`)
  await expect(row).toContainText('401')

  // A write from a panel, with the token: a fault rule, there for the control API too.
  await page.getByLabel('Path pattern').fill('/bookings/:id/decline')
  await page.getByRole('button', { name: 'Add rule' }).click()
  await expect(page.getByRole('button', { name: 'Remove rule f1' })).toBeVisible()
  const rules = await fetch(`${server.url}/__sandbox/faults`, {
    headers: { [SESSION_HEADER]: session, authorization: `Bearer ${TOKEN}` },
  })
  expect(await rules.json()).toEqual([expect.objectContaining({ id: 'f1' })])

  // Kept for the tab: a reload asks for nothing.
  await page.reload()
  await expect(page.getByRole('heading', { name: /Requests live/ })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Control token' })).toHaveCount(0)

  // The API reference it links to reads the document with the tab's token too.
  await page.getByRole('link', { name: 'API reference' }).click()
  await expect(page.getByRole('heading', { name: /Platform Backend API/ }).first()).toBeVisible({
    timeout: 20_000,
  })
})

test('asks again in another tab: the token is kept for one tab only', async ({ browser }) => {
  const context = await browser.newContext()
  const first = await context.newPage()
  await first.goto(`${server.url}/__sandbox/`)
  await first.getByRole('textbox', { name: 'Control token' }).fill(TOKEN)
  await first.getByRole('button', { name: 'Open the dashboard' }).click()
  await expect(first.getByRole('heading', { name: /Requests live/ })).toBeVisible()
  const second = await context.newPage()
  await second.goto(`${server.url}/__sandbox/`)
  await expect(second.getByRole('textbox', { name: 'Control token' })).toBeVisible()
  await context.close()
})
