// The plain test of Playwright, not the sandbox fixture: the page's own worker answers,
// as in `npm run dev`, and the sandbox's devtools are mounted over the app.
import { expect, test } from '@playwright/test'

test('from the devtools: sign in as host, add a 503 rule, see the error and the journal', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Sign in as host' })).toBeVisible()
  await page.getByRole('button', { name: 'Open the sandbox devtools' }).click()
  const panel = page.getByRole('complementary', { name: 'Sandbox devtools' })

  await panel.getByRole('tab', { name: 'Personas' }).click()
  await panel.getByRole('button', { name: 'Sign in as host', exact: true }).click()
  // The app took the session up through its own cookie refresh.
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')

  await panel.getByRole('tab', { name: 'Faults' }).click()
  await panel.getByLabel('Path pattern').fill('/bookings/:id/decline')
  await panel.getByLabel('Status').selectOption('503')
  await panel.getByRole('button', { name: 'Add rule' }).click()
  await expect(panel.getByRole('button', { name: 'Remove rule f1' })).toBeVisible()

  await page.getByRole('button', { name: 'Decline booking bkg_pending', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('503')

  await panel.getByRole('tab', { name: 'Requests' }).click()
  const row = panel.getByTestId('journal').getByRole('row').nth(1)
  await expect(row).toContainText('POST /bookings/bkg_pending/decline')
  await expect(row).toContainText('503')
})
