'use server'
import { cookies } from 'next/headers'
import { sandboxHeaders } from 'platform-sandbox/next'

const API_URL = process.env.API_URL ?? 'http://localhost:4010'

/** A call to the API from the server, in the sandbox session of the request it serves. */
async function post(path: string, body: unknown, accessToken?: string): Promise<Response> {
  return fetch(`${API_URL}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      ...(await sandboxHeaders()),
    },
    body: JSON.stringify(body),
  })
}

/** Declines a booking as the signed-in user; resolves to the API's status code. */
export async function declineBooking(bookingId: string): Promise<number> {
  // The API's HttpOnly refresh cookie: on localhost it reaches the app too (cookies ignore ports).
  const refreshToken = (await cookies()).get('refresh_token')?.value
  const refreshed = await post('/auth/refresh', { refreshToken })
  if (!refreshed.ok) return refreshed.status
  const { accessToken } = (await refreshed.json()) as { accessToken: string }
  const declined = await post(
    `/bookings/${bookingId}/decline`,
    { reason: 'Fully booked' },
    accessToken,
  )
  return declined.status
}
