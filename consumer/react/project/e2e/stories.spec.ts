import { expect, test } from '@playwright/test'

test('the host story shows the account the sandbox holds', async ({ page }) => {
  await page.goto('/iframe.html?id=accountstatus--host&viewMode=story')
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')
})

test('each story starts from its own scenario and persona', async ({ page }) => {
  await page.goto('/iframe.html?id=accountstatus--restricted-host&viewMode=story')
  await expect(page.getByTestId('account-status')).toHaveText(
    'Payouts disabled (requirements.past_due)',
  )
  await page.goto('/iframe.html?id=accountstatus--guest-in-empty-scenario&viewMode=story')
  await expect(page.getByTestId('account-status')).toHaveText('No payment account')
})
