import { operationKit } from 'platform-sandbox'
import hostScreens from 'platform-sandbox/examples/operations'
import { expect, test } from 'platform-sandbox/playwright'

// The fixture answers the page's requests, so it serves the operations main.ts gives the
// worker: `GET /host/bookings` among them.
test.use({ sandboxOptions: { operations: hostScreens(operationKit) } })

// `exact: true`: "Decline booking bkg_pending" is also the start of "... bkg_pending_2".
const declineButton = (bookingId: string) => ({ name: `Decline booking ${bookingId}`, exact: true })

// Each test has a sandbox of its own: two workers run them, none sees another's declines.
for (const [declined, untouched] of [
  ['bkg_pending', 'bkg_pending_2'],
  ['bkg_pending_2', 'bkg_pending'],
]) {
  test(`a host declines ${declined}, and only that row goes`, async ({ page, sandbox }) => {
    await page.goto('/')
    await page.getByRole('button', { name: 'Sign in as host' }).click()
    await expect(page.getByRole('listitem')).toHaveCount(10)

    await page.getByRole('button', declineButton(declined)).click()
    await expect(page.getByRole('listitem')).toHaveCount(9)
    await expect(page.getByRole('button', declineButton(declined))).toHaveCount(0)
    await expect(page.getByRole('button', declineButton(untouched))).toBeVisible()
    const { bookings } = await sandbox.store()
    expect(bookings.get(declined)?.status).toBe('declined')
    expect(bookings.get(untouched)?.status).toBe('pending')
  })
}

test('a reload shows the real status: the declined booking stays gone', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await page.getByRole('button', declineButton('bkg_pending')).click()
  await expect(page.getByRole('listitem')).toHaveCount(9)

  await page.reload()
  await expect(page.getByRole('listitem')).toHaveCount(9)
  await expect(page.getByRole('button', declineButton('bkg_pending'))).toHaveCount(0)
})
