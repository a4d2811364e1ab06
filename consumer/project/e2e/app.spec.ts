import type { SandboxWorker } from 'platform-sandbox/browser'
import { expect, test } from 'platform-sandbox/playwright'

test('a host declines a booking', async ({ page, sandbox }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')

  await page.getByRole('button', { name: 'Decline booking bkg_pending' }).click()
  await expect(page.getByText('Booking bkg_pending declined')).toBeVisible()
  await expect
    .poll(async () => (await sandbox.store()).bookings.get('bkg_pending')?.status)
    .toBe('declined')
  expect(sandbox.journal.list().map((entry) => entry.operationId)).toContain('declineBooking')
})

test("the app's own startSandboxWorker() leaves the answering to the fixture", async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Sign in as host' })).toBeVisible()
  const answeredBy = await page.evaluate(
    () => (globalThis as { __sandbox?: SandboxWorker }).__sandbox?.answeredBy,
  )
  expect(answeredBy).toBe('playwright')
})

test.describe('a new guest', () => {
  test.use({ sandboxScenario: 'empty' })

  test('starts from the scenario the test names', async ({ sandbox }) => {
    const store = await sandbox.store()
    expect(store.bookings.get('bkg_pending')).toBeUndefined()
  })
})
