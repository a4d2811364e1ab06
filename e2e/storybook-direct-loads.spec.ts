/**
 * A story opened directly, again and again, as a developer reloads `iframe.html`: each load
 * is answered by the worker. msw's worker unregisters itself when its last page unloads, so
 * the next load can start uncontrolled by it; the Storybook runtime must not render the story
 * before the worker controls the page, or its requests escape to the network.
 */
import { expect, type Page, test } from '@playwright/test'
import { MANAGER_LOAD_MS, STORYBOOK_URL } from './support/storybook.ts'

const STORY = 'account-accountpanel--host-at-the-api-address'
const API = 'http://localhost:4010/'

/** Every API request the worker did not answer: failed, or answered by the network. */
function watchEscapes(page: Page): string[] {
  const escaped: string[] = []
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? ''
    if (request.url().startsWith(API) && !error.includes('ERR_ABORTED')) {
      escaped.push(`${request.method()} ${request.url()}: ${error}`)
    }
  })
  page.on('response', (response) => {
    if (response.url().startsWith(API) && !response.fromServiceWorker()) {
      escaped.push(`${response.request().method()} ${response.url()}: ${response.status()}`)
    }
  })
  return escaped
}

test('loads a story directly ten times in a row, every time answered by the worker', async ({
  page,
}) => {
  const escaped = watchEscapes(page)
  for (let load = 1; load <= 10; load++) {
    await page.goto(`${STORYBOOK_URL}/iframe.html?id=${STORY}&viewMode=story`)
    const root = page.locator('#storybook-root')
    await expect(root.getByTestId('account-status'), `load ${load}`).toContainText(
      'Payouts enabled',
    )
    expect(escaped, `load ${load}`).toEqual([])
  }
})

test('opens the story in a new tab after direct loads of iframe.html', async ({ context }) => {
  const first = await context.newPage()
  for (let load = 1; load <= 3; load++) {
    await first.goto(`${STORYBOOK_URL}/iframe.html?id=${STORY}&viewMode=story`)
    await expect(first.getByTestId('account-status')).toContainText('Payouts enabled')
  }
  await first.close()
  const tab = await context.newPage()
  const escaped = watchEscapes(tab)
  await tab.goto(`${STORYBOOK_URL}/?path=/story/${STORY}`)
  const preview = tab.frameLocator('#storybook-preview-iframe')
  // Storybook's manager loads first, then its preview frame and the worker: on a busy machine
  // that takes longer than one answer.
  await expect(preview.getByTestId('account-status')).toContainText('Payouts enabled', {
    timeout: MANAGER_LOAD_MS,
  })
  expect(escaped).toEqual([])
})

test('renders from the worker when the page loads while the worker is unregistering itself', async ({
  context,
}) => {
  // What msw's worker does on its last page's CLIENT_CLOSED, with that page still open: a
  // page loaded now is controlled by no worker, and registering again brings back the same
  // active worker, which never claims it.
  const first = await context.newPage()
  await first.goto(`${STORYBOOK_URL}/iframe.html?id=${STORY}&viewMode=story`)
  await expect(first.getByTestId('account-status')).toContainText('Payouts enabled')
  const unregistered = await first.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration()
    return (await registration?.unregister()) ?? false
  })
  expect(unregistered).toBe(true)

  const second = await context.newPage()
  const escaped = watchEscapes(second)
  await second.goto(`${STORYBOOK_URL}/iframe.html?id=${STORY}&viewMode=story`)
  await expect(second.getByTestId('account-status')).toContainText('Payouts enabled')
  expect(await second.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  expect(escaped).toEqual([])
})
