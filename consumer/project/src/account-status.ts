import { type AccountStatus, accountStatus } from './api.ts'

/** The signed-in user's payment account, loaded with their access token. */
export function createAccountStatus(accessToken: string): HTMLElement {
  const element = document.createElement('p')
  element.dataset.testid = 'account-status'
  element.textContent = 'Loading account…'
  accountStatus(accessToken).then(
    (status) => {
      element.textContent = describe(status)
    },
    (error: unknown) => {
      element.textContent = String(error)
    },
  )
  return element
}

function describe(status: AccountStatus | null): string {
  if (status === null) return 'No payment account'
  const payouts = `Payouts ${status.payouts_enabled ? 'enabled' : 'disabled'}`
  return status.disabled_reason ? `${payouts} (${status.disabled_reason})` : payouts
}
