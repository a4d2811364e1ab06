import { apiUrl } from './api.ts'

/** A pending booking, as the screen shows it. */
export interface PendingBooking {
  id: string
  startsAt: string
  amount: number
  currency: string
}

/**
 * The host's pending bookings, 20 at most. API v1.0 has no operation that lists bookings, so
 * until the backend has one, the sandbox's own collection route stands in for it, in
 * development, tests and sandbox builds. A production build lists none and holds no byte of this.
 */
export async function listPendingBookings(hostId: string): Promise<PendingBooking[]> {
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return []
  const query = new URLSearchParams({
    where: JSON.stringify({ hostId, status: 'pending' }),
    fields: 'id,startsAt,amount,currency',
    limit: '20',
  })
  const response = await fetch(`${apiUrl}/__sandbox/collections/bookings?${query}`, {
    credentials: 'include',
  })
  if (!response.ok) throw new Error(`Listing the bookings failed: ${response.status}`)
  const page = (await response.json()) as { items: PendingBooking[] }
  return page.items
}
