import { Bookings } from './bookings'

export default function Home() {
  return (
    <main>
      <h1>Bookings</h1>
      <Bookings bookingId="bkg_pending" />
    </main>
  )
}
