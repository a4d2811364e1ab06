import { createPlatformClient } from 'platform-sandbox/client'
import type { components } from 'platform-sandbox/types'

export type AccountStatus = components['schemas']['PayprovAccountStatus']

/** The Platform API. In development mode the sandbox answers it in the page. */
export const api = createPlatformClient({
  baseUrl: 'http://localhost:4010',
  credentials: 'include',
})

/** Completes the identity provider's sign-in, then trades the refresh cookie for an access token. */
export async function signIn(code: string): Promise<string> {
  const signedIn = await api.POST('/auth/idp/complete', { body: { code } })
  if (signedIn.error) throw new Error(`Sign-in failed: ${signedIn.error.message}`)
  const { data, error } = await api.POST('/auth/refresh', { body: {} })
  if (error) throw new Error(`Refresh failed: ${error.message}`)
  return data.accessToken
}

export async function accountStatus(accessToken: string): Promise<AccountStatus | null> {
  const { data, error, response } = await api.GET('/payprov/account-status', {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  if (response.status === 404) return null
  if (error) throw new Error(`Account status failed: ${error.message}`)
  return data
}

export async function declineBooking(accessToken: string, bookingId: string): Promise<void> {
  const { error } = await api.POST('/bookings/{bookingId}/decline', {
    params: { path: { bookingId } },
    headers: { authorization: `Bearer ${accessToken}` },
    body: { reason: 'Fully booked' },
  })
  if (error) throw new Error(`Decline failed: ${error.message}`)
}
