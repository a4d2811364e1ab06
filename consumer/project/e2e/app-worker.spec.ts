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
