import { apiUrl } from './api.ts'

/** A pending booking, as the screen shows it. */
export interface PendingBooking {
  id: string
  startsAt: string
  amount: number
  currency: string
}

/**
 * The signed-in host's pending bookings, 20 at most: `GET /host/bookings`, an operation of your
 * own (`listHostBookings`). The sandbox serves it in development, tests and sandbox builds; a
 * production build calls the same path on the backend once it is built there.
 */
export async function listPendingBookings(accessToken: string): Promise<PendingBooking[]> {
  const query = new URLSearchParams({ status: 'pending', limit: '20' })
  const response = await fetch(`${apiUrl}/host/bookings?${query}`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  if (!response.ok) throw new Error(`Listing the bookings failed: ${response.status}`)
  const page = (await response.json()) as { items: PendingBooking[] }
  return page.items
}
