import { useMutation } from '@tanstack/react-query'
import { bearer } from './api.ts'
import { declineBookingMutation } from './client/@tanstack/react-query.gen.ts'

/** A button that declines one booking, and what came of it. */
export function DeclineBooking({
  accessToken,
  bookingId,
}: {
  accessToken: string
  bookingId: string
}) {
  const decline = useMutation(declineBookingMutation())
  const send = () =>
    decline.mutate({
      path: { bookingId },
      headers: bearer(accessToken),
      body: { reason: 'Fully booked' },
    })
  return (
    <li>
      <button type="button" onClick={send} disabled={decline.isPending}>
        Decline booking {bookingId}
      </button>
      {decline.isSuccess && <p>Booking {bookingId} declined</p>}
      {decline.error && <p role="alert">{decline.error.message}</p>}
    </li>
  )
}
