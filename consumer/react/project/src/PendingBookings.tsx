import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { bearer } from './api.ts'
import {
  declineBookingMutation,
  listHostBookingsOptions,
  listHostBookingsQueryKey,
} from './client/@tanstack/react-query.gen.ts'

/** The signed-in host's pending bookings, each with a button that declines it. */
export function PendingBookings({ accessToken }: { accessToken: string }) {
  const queryClient = useQueryClient()
  const bookings = useQuery({
    ...listHostBookingsOptions({ headers: bearer(accessToken), query: { status: 'pending' } }),
    retry: false,
  })
  const decline = useMutation({
    ...declineBookingMutation(),
    // The declined booking is no longer pending: the list is read again, and its row goes.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listHostBookingsQueryKey() }),
  })
  const send = (bookingId: string) =>
    decline.mutate({
      path: { bookingId },
      headers: bearer(accessToken),
      body: { reason: 'Fully booked' },
    })
  let list = <p>Loading bookings…</p>
  if (bookings.error) list = <p role="alert">{bookings.error.message}</p>
  else if (bookings.data?.items.length === 0) list = <p>No pending bookings</p>
  else if (bookings.data) {
    list = (
      <ul>
        {bookings.data.items.map((booking) => (
          <li key={booking.id}>
            {booking.id}, {booking.startsAt.slice(0, 10)}, {booking.amount} {booking.currency}{' '}
            <button type="button" onClick={() => send(booking.id)} disabled={decline.isPending}>
              Decline booking {booking.id}
            </button>
          </li>
        ))}
      </ul>
    )
  }
  return (
    <section aria-labelledby="pending-bookings">
      <h2 id="pending-bookings">Pending bookings</h2>
      {list}
      {decline.isSuccess && <p>Booking {decline.variables.path.bookingId} declined</p>}
      {decline.error && <p role="alert">{decline.error.message}</p>}
    </section>
  )
}
