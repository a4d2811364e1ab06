import { expect, test } from '@playwright/test'
import type { SandboxWorker } from 'platform-sandbox/browser'

// Without the fixture: the page's own Service Worker answers, and the sandbox lives in the page.
test('the app answers from its own sandbox worker', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')

  await page.getByRole('button', { name: 'Decline booking bkg_pending' }).click()
  await expect(page.getByText('Booking bkg_pending declined')).toBeVisible()
  const bookingStatus = () =>
    page.evaluate(async () => {
      const { sandbox } = (globalThis as { __sandbox?: SandboxWorker }).__sandbox!
      return (await sandbox.store()).bookings.get('bkg_pending')?.status
    })
  await expect.poll(bookingStatus).toBe('declined')
})

test('leaves other requests to the network, without warnings', async ({ page }) => {
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text())
  })
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Sign in as host' })).toBeVisible()
  const status = await page.evaluate(async () => (await fetch('/not-an-api-path')).status)
  expect(status).toBe(200) // vite preview's index.html fallback, not the sandbox
  expect(warnings).toEqual([])
})
