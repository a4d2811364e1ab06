/**
 * `/__sandbox/docs`: the merged contract rendered by Scalar from the installed
 * package, with every request that leaves the machine blocked.
 */
import { expect, test } from '@playwright/test'
import { type RunningServer, startServer } from '../server/start-server.ts'
import { keepScreenshot } from './support/screenshots.ts'

let server: RunningServer

test.beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true })
})
test.afterAll(async () => {
  await server.close()
})

test('renders the merged document offline', async ({ page }, testInfo) => {
  const blocked: string[] = []
  await page.context().route('**/*', (route) => {
    const { hostname } = new URL(route.request().url())
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue()
    blocked.push(route.request().url())
    return route.abort('internetdisconnected')
  })
  await page.goto(`${server.url}/__sandbox/docs`)
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
