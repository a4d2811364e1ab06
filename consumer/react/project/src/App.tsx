import { useMutation } from '@tanstack/react-query'
import { AccountStatus } from './AccountStatus.tsx'
import { signIn } from './api.ts'
import { DeclineBooking } from './DeclineBooking.tsx'

/** A host signs in, sees their payment account and declines pending bookings. */
export function App() {
  const session = useMutation({ mutationFn: signIn })
  if (!session.data) {
    return (
      <main>
        <button type="button" onClick={() => session.mutate('idp_host')}>
          Sign in as host
        </button>
        {session.error && <p role="alert">{session.error.message}</p>}
      </main>
    )
  }
  return (
    <main>
      <AccountStatus accessToken={session.data} />
      <ul>
        <DeclineBooking accessToken={session.data} bookingId="bkg_pending" />
        <DeclineBooking accessToken={session.data} bookingId="bkg_pending_2" />
      </ul>
    </main>
  )
}
