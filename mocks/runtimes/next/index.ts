/**
 * @module
 * The Next.js entry: server components, route handlers and server actions call the standalone
 * sandbox (no page intercepts their `fetch`), in the incoming request's sandbox session.
 */
import { headers } from 'next/headers'
import { namesSession, SESSION_HEADER, sessionIdOf } from '../../core/index.ts'

/** What `sandboxHeaders()` resolves to: the session header, or nothing. */
export type SandboxSessionHeaders = { 'x-sandbox-session': string } | Record<string, never>

/**
 * `{ 'x-sandbox-session': <id> }` when the incoming request names a session (that header, or
 * the `sandbox_session` cookie the Playwright fixture sets), `{}` otherwise. Call it where
 * `headers()` of `next/headers` may be called; like it, it makes a page render per request.
 *
 * @example
 * await fetch(`${process.env.API_URL}/bookings/${bookingId}/decline`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', ...(await sandboxHeaders()) },
 *   body: JSON.stringify({ reason: 'Fully booked' }),
 * })
 */
export async function sandboxHeaders(): Promise<SandboxSessionHeaders> {
  const incoming = await headers()
  const named = {
    [SESSION_HEADER]: incoming.get(SESSION_HEADER) ?? undefined,
    cookie: incoming.get('cookie') ?? undefined,
  }
  return namesSession(named) ? { [SESSION_HEADER]: sessionIdOf(named) } : {}
}
