import { useQuery } from '@tanstack/react-query'
import { bearer } from './api.ts'
import { getAccountStatusOptions } from './client/@tanstack/react-query.gen.ts'

/** The signed-in user's payment account. */
export function AccountStatus({ accessToken }: { accessToken: string }) {
  const { data, error, isPending } = useQuery({
    ...getAccountStatusOptions({ headers: bearer(accessToken) }),
    retry: false,
  })
  let text = 'Loading account…'
  if (error) text = error.code === 'NOT_FOUND' ? 'No payment account' : error.message
  else if (!isPending) {
    const payouts = `Payouts ${data.payouts_enabled ? 'enabled' : 'disabled'}`
    text = data.disabled_reason ? `${payouts} (${data.disabled_reason})` : payouts
  }
  return <p data-testid="account-status">{text}</p>
}
