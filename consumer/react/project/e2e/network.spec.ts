import { HttpResponse, http } from 'msw'
import { expect, test } from 'platform-sandbox/playwright'

// `network.use` overrides one handler for this test only; the sandbox answers the rest.
test('shows the error when the account cannot be read', async ({ page, network }) => {
  network.use(
    http.get('*/payprov/account-status', () =>
      HttpResponse.json(
        { message: 'The provider is down', code: 'INTERNAL_SERVER_ERROR' },
        { status: 500 },
      ),
    ),
  )
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in as host', exact: true }).click()
  await expect(page.getByTestId('account-status')).toHaveText('The provider is down')
})
