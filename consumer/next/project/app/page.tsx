import { Suspense } from 'react'
import { AccountStatus } from './account'
import { Bookings } from './bookings'

export default function Home() {
  return (
    <main>
      <h1>Bookings</h1>
      {/* Rendered at request time; the build prerenders the fallback. */}
      <Suspense fallback={<p>Loading account…</p>}>
        <AccountStatus />
      </Suspense>
      <Bookings bookingId="bkg_pending" />
    </main>
  )
}
