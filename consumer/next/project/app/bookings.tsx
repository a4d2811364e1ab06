'use client'
import { useActionState, useState } from 'react'
import { declineBooking } from './actions'

const API_URL = process.env.NEXT_PUBLIC_API_URL ?? 'http://localhost:4010'

export function Bookings({ bookingId }: { bookingId: string }) {
  const [signedIn, setSignedIn] = useState(false)
  const [status, decline, declining] = useActionState(() => declineBooking(bookingId), null)

  // The browser signs in at the API, which sets its HttpOnly refresh_token cookie.
  async function signIn() {
    const response = await fetch(`${API_URL}/auth/idp/complete`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'idp_host' }),
    })
    setSignedIn(response.ok)
  }

  if (!signedIn) {
    return (
      <button type="button" onClick={signIn}>
        Sign in as host
      </button>
    )
  }
  return (
    <form action={decline}>
      <p>Signed in as host</p>
      <button type="submit" disabled={declining}>
        Decline booking {bookingId}
      </button>
      {status !== null && <p role="status">Decline answered {status}</p>}
    </form>
  )
}
