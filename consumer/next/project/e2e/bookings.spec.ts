import { expect, test } from 'platform-sandbox/playwright'

// Both tests decline the same booking, in parallel workers: each has a session of its own.
for (const name of ['a host declines a booking', 'another host declines the same booking']) {
  test(name, async ({ page, sandbox }) => {
    await page.goto('/')
    await page.getByRole('button', { name: 'Sign in as host' }).click()
    await page.getByRole('button', { name: 'Decline booking bkg_pending', exact: true }).click()
    await expect(page.getByRole('status')).toHaveText('Decline answered 201')

    const store = await sandbox.store()
    expect(store.bookings.get('bkg_pending')?.status).toBe('declined')
    expect(sandbox.journal.list().map((entry) => [entry.operationId, entry.status])).toEqual([
      ['completeIdpSignIn', 201],
      ['refreshToken', 200],
      ['declineBooking', 201],
    ])
  })
}

test('a test that declines nothing sees the booking pending', async ({ page, sandbox }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Sign in as host' })).toBeVisible()
  const store = await sandbox.store()
  expect(store.bookings.get('bkg_pending')?.status).toBe('pending')
})

test('a server component calls the API in the test session, at request time', async ({
  page,
  sandbox,
}) => {
  await page.goto('/')
  await expect(page.getByTestId('account-status')).toHaveText('Signed out')
  await page.getByRole('button', { name: 'Sign in as host' }).click()
  await expect(page.getByText('Signed in as host')).toBeVisible()

  await page.reload()
  await expect(page.getByTestId('account-status')).toHaveText('Payouts enabled')
  expect(sandbox.journal.list().map((entry) => [entry.operationId, entry.status])).toEqual([
    ['completeIdpSignIn', 201],
    ['refreshToken', 200],
    ['getAccountStatus', 200],
  ])
})
