/**
 * @module
 * Replicas on one Redis, as the serial tests reach them: each through the sandbox's one client
 * (reply bodies untyped, as tests read them), and the write they share.
 */
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { createSandboxClient, type SandboxClient } from '../mocks/sandbox-client/sandbox-client.ts'

export type Replica = SandboxClient<any>

export const replicaAt = (baseUrl: string): Replica => createSandboxClient({ baseUrl, personas })

/** Opens a checkout session as the guest: one record more in `checkoutSessions`. */
export const checkout = (replica: Replica, session: string, token: string) =>
  replica.request('/checkout/create-session', {
    method: 'POST',
    authorization: `Bearer ${token}`,
    body: { bookingId: anchors.bookings.accepted },
    session,
  })
