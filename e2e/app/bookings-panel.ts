/**
 * @module
 * The signed-in host's pending bookings, each with a Decline button.
 */
import { type Api, ApiError, subjectOf } from './api.ts'
import { h, mount } from './dom.ts'

export interface BookingsPanelProps {
  api: Api
  accessToken: string
  onDeclined?: (bookingId: string) => void
  /** Called when declining failed (the API refused, or is unavailable). */
  onError?: (bookingId: string, error: unknown) => void
}

export function createBookingsPanel(props: BookingsPanelProps): {
  element: HTMLElement
  ready: Promise<void>
} {
  const element = h('section', { class: 'panel', 'data-testid': 'bookings-panel' })
  return { element, ready: load(element, props) }
}

async function load(element: HTMLElement, props: BookingsPanelProps): Promise<void> {
  try {
    const bookings = await props.api.pendingBookingsHostedBy(subjectOf(props.accessToken))
    mount(
      element,
      h('h2', {}, `Pending bookings (${bookings.length})`),
      bookings.length === 0
        ? h('p', { class: 'muted' }, 'No pending bookings')
        : h(
            'ul',
            { class: 'list' },
            ...bookings.map((booking) =>
              h(
                'li',
                { 'data-testid': `booking-${booking.id}` },
                h(
                  'span',
                  {},
                  `${booking.id} · ${booking.startsAt.slice(0, 10)} · ${booking.guestId}`,
                ),
                h(
                  'button',
                  {
                    type: 'button',
                    'data-testid': `decline-${booking.id}`,
                    onclick: async () => {
                      try {
                        await props.api.declineBooking(props.accessToken, booking.id)
                      } catch (error) {
                        props.onError?.(booking.id, error)
                        return
                      }
                      props.onDeclined?.(booking.id)
                      await load(element, props)
                    },
                  },
                  'Decline',
                ),
              ),
            ),
          ),
    )
  } catch (error) {
    const text = error instanceof ApiError ? `${error.status} ${error.message}` : String(error)
    mount(element, h('p', { class: 'error', role: 'alert' }, `Failed to load bookings: ${text}`))
  }
}
