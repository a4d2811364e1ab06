import { operationKit } from 'platform-sandbox'
import hostScreens from 'platform-sandbox/examples/operations'
import { expect, test } from 'platform-sandbox/playwright'

// The fixture answers the page's requests, so it serves the operations main.tsx gives the
// worker: `GET /host/bookings` among them.
test.use({ sandboxOptions: { operations: hostScreens(operationKit) } })

// `exact: true`: "Decline booking bkg_pending" is also the start of "... bkg_pending_2".
const declineButton = (bookingId: string) => ({ name: `Decline booking ${bookingId}`, exact: true })

// Each test has a sandbox of its own: two workers run them, and every test starts from the
// host's 10 pending bookings, whatever the tests before it in its worker, or beside it in the
// other worker, declined.
for (const [declined, untouched] of [
  ['bkg_pending', 'bkg_pending_2'],
  ['bkg_pending_2', 'bkg_pending'],
]) {
  test(`a host declines ${declined}, and only that row goes`, async ({ page, sandbox }) => {
    await page.goto('/')
    await page.getByRole('button', { name: 'Sign in as host' }).click()
    await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')
    await expect(page.getByRole('listitem')).toHaveCount(10)

    await page.getByRole('button', declineButton(declined)).click()
    await expect(page.getByText(`Booking ${declined} declined`, { exact: true })).toBeVisible()
    await expect(page.getByRole('listitem')).toHaveCount(9)
    await expect(page.getByRole('button', declineButton(declined))).toHaveCount(0)
    await expect(page.getByRole('button', declineButton(untouched))).toBeVisible()
    const { bookings } = await sandbox.store()
    expect(bookings.get(declined)?.status).toBe('declined')
    expect(bookings.get(untouched)?.status).toBe('pending')
  })
}

test('a booking declined in another tab is refused here', async ({ page, context }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await expect(page.getByRole('listitem')).toHaveCount(10)

  // A second tab of the same browser: the same sandbox, and the host still signed in.
  const other = await context.newPage()
  await other.goto('/')
  await other.getByRole('button', declineButton('bkg_pending')).click()
  await expect(other.getByText('Booking bkg_pending declined', { exact: true })).toBeVisible()

  // This tab's list was read before: its row is still there, and the API refuses the decline.
  await page.getByRole('button', declineButton('bkg_pending')).click()
  await expect(page.getByRole('alert')).toContainText('only a pending booking can be declined')
})

test('a reload keeps the host signed in, and the declined booking stays gone', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')
  await page.getByRole('button', declineButton('bkg_pending')).click()
  await expect(page.getByRole('listitem')).toHaveCount(9)

  await page.reload()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')
  await expect(page.getByRole('button', { name: 'Sign in as host' })).toHaveCount(0)
  await expect(page.getByRole('listitem')).toHaveCount(9)
  await expect(page.getByRole('button', declineButton('bkg_pending'))).toHaveCount(0)
})
