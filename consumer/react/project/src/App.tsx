import { useMutation, useQuery } from '@tanstack/react-query'
import { AccountStatus } from './AccountStatus.tsx'
import { restoreSession, signIn } from './api.ts'
import { PendingBookings } from './PendingBookings.tsx'

/** A host signs in (or is still signed in), sees their payment account and pending bookings. */
export function App() {
  const session = useQuery({ queryKey: ['session'], queryFn: restoreSession, retry: false })
  const signedIn = useMutation({ mutationFn: signIn })
  const accessToken = signedIn.data ?? session.data
  if (session.isPending) return <p>Loading…</p>
  if (!accessToken) {
    return (
      <main>
        <button type="button" onClick={() => signedIn.mutate('idp_host')}>
          Sign in as host
        </button>
        {signedIn.error && <p role="alert">{signedIn.error.message}</p>}
      </main>
    )
  }
  return (
    <main>
      <AccountStatus accessToken={accessToken} />
      <PendingBookings accessToken={accessToken} />
    </main>
  )
}
