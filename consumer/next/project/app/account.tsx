import { cookies } from 'next/headers'
import { sandboxHeaders } from 'platform-sandbox/next'

const API_URL = process.env.API_URL ?? 'http://localhost:4010'

/**
 * A server component that calls the API. It reads the request (the refresh cookie and the
 * sandbox session), so it renders at request time: with `cacheComponents`, in <Suspense>.
 */
export async function AccountStatus() {
  const refreshToken = (await cookies()).get('refresh_token')?.value
  const headers = { 'content-type': 'application/json', ...(await sandboxHeaders()) }
  const refreshed = refreshToken
    ? await fetch(`${API_URL}/auth/refresh`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ refreshToken }),
      })
    : undefined
  if (!refreshed?.ok) return <p data-testid="account-status">Signed out</p>
  const { accessToken } = (await refreshed.json()) as { accessToken: string }
  const account = await fetch(`${API_URL}/payprov/account-status`, {
    headers: { ...headers, authorization: `Bearer ${accessToken}` },
  })
  const { payouts_enabled } = (await account.json()) as { payouts_enabled: boolean }
  return <p data-testid="account-status">Payouts {payouts_enabled ? 'enabled' : 'disabled'}</p>
}
