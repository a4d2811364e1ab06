/**
 * @module
 * The Next.js entry: forwards the sandbox session of the incoming request to the
 * requests the server makes itself. Server components, route handlers and server
 * actions run on the server, where no page can intercept their `fetch`, so they call
 * the standalone sandbox (`npx platform-sandbox`) and name the session there.
 */
import { headers } from 'next/headers'
import { namesSession, SESSION_HEADER, sessionIdOf } from '../../core/session-id.ts'

/** What `sandboxHeaders()` resolves to: the session header, or nothing. */
export type SandboxSessionHeaders = { 'x-sandbox-session': string } | Record<string, never>

/**
 * The headers that send the incoming request's sandbox session on: `{ 'x-sandbox-session':
 * <id> }` when the request carries one (the `x-sandbox-session` header, which wins, or the
 * `sandbox_session` cookie the Playwright fixture sets), `{}` otherwise. Call it where
 * `headers()` from `next/headers` may be called (a server component, a route handler, a
 * server action); like `headers()`, it makes a page render on each request.
 *
 * @example
 * // app/actions.ts
 * 'use server'
 * import { sandboxHeaders } from 'platform-sandbox/next'
 *
 * export async function declineBooking(bookingId: string) {
 *   const response = await fetch(`${process.env.API_URL}/bookings/${bookingId}/decline`, {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json', ...(await sandboxHeaders()) },
 *     body: JSON.stringify({ reason: 'Fully booked' }),
 *   })
 *   return response.status
 * }
 */
export async function sandboxHeaders(): Promise<SandboxSessionHeaders> {
  const incoming = await headers()
  const named = {
    [SESSION_HEADER]: incoming.get(SESSION_HEADER) ?? undefined,
    cookie: incoming.get('cookie') ?? undefined,
  }
  if (!namesSession(named)) return {}
  const id = sessionIdOf(named)
  return { [SESSION_HEADER]: id }
}
