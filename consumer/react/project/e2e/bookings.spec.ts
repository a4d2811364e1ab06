import { expect, test } from 'platform-sandbox/playwright'

// `exact: true`: "Decline booking bkg_pending" is also the start of "... bkg_pending_2".
const declineButton = (bookingId: string) => ({ name: `Decline booking ${bookingId}`, exact: true })

for (const [declined, untouched] of [
  ['bkg_pending', 'bkg_pending_2'],
  ['bkg_pending_2', 'bkg_pending'],
]) {
  test(`a host declines ${declined}, and only that one`, async ({ page, sandbox }) => {
    await page.goto('/')
    await page.getByRole('button', { name: 'Sign in as host' }).click()
    await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')

    await page.getByRole('button', declineButton(declined)).click()
    await expect(page.getByText(`Booking ${declined} declined`, { exact: true })).toBeVisible()
    const { bookings } = await sandbox.store()
    expect(bookings.get(declined)?.status).toBe('declined')
    expect(bookings.get(untouched)?.status).toBe('pending')
  })
}

test('a second decline of the same booking is refused', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  const button = page.getByRole('button', declineButton('bkg_pending'))
  await button.click()
  await expect(page.getByText('Booking bkg_pending declined', { exact: true })).toBeVisible()
  await button.click()
  await expect(page.getByRole('alert')).toContainText('only a pending booking can be declined')
})

test('a reload keeps the host signed in: the refresh cookie is in the browser', async ({
  page,
}) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')

  await page.reload()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')
  await expect(page.getByRole('button', { name: 'Sign in as host' })).toHaveCount(0)
})
