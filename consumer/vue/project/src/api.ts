import { createPlatformClient } from 'platform-sandbox/client'

/** The sandbox in development, tests and sandbox builds; `.env.production` names the real API. */
export const apiUrl: string = import.meta.env.VITE_API_URL ?? 'http://localhost:4010'

// `credentials: 'include'`: the page (localhost:5173) and the API (localhost:4010) are two
// origins, and without it the browser neither keeps nor sends the refresh_token cookie.
export const api = createPlatformClient({ baseUrl: apiUrl, credentials: 'include' })

/** The access token of the session the refresh_token cookie holds, or `null` when none. */
export async function restoreSession(): Promise<string | null> {
  const { data } = await api.POST('/auth/refresh', { body: {} })
  return data?.accessToken ?? null
}

/** The identity provider's code, then the refresh cookie traded for an access token. */
export async function signIn(code: string): Promise<string> {
  const signedIn = await api.POST('/auth/idp/complete', { body: { code } })
  if (signedIn.error) throw new Error(`Sign-in failed: ${signedIn.error.message}`)
  const { data, error } = await api.POST('/auth/refresh', { body: {} })
  if (error) throw new Error(`Refresh failed: ${error.message}`)
  return data.accessToken
}

/** Declines a pending booking as the signed-in host. */
export async function declineBooking(accessToken: string, bookingId: string): Promise<void> {
  const { error } = await api.POST('/bookings/{bookingId}/decline', {
    params: { path: { bookingId } },
    headers: { authorization: `Bearer ${accessToken}` },
    body: { reason: 'Fully booked' },
  })
  if (error) throw new Error(`Decline failed: ${error.message}`)
}
