/**
 * The MCP tests' helpers: SDK clients over stdio (the command an agent's config launches)
 * and over HTTP (`/__sandbox/mcp`), and the scripted walk of an agent.
 */
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { expect } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'

export const BIN = fileURLToPath(new URL('../../bin/platform-sandbox.mjs', import.meta.url))
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export async function connectStdio(
  args: string[],
  env: Record<string, string> = {},
  command = process.execPath,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const client = new Client({ name: 'platform-sandbox-tests', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => stderr }
}

export async function connectHttp(
  url: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'platform-sandbox-tests', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  )
  return client
}

/** Calls a tool and returns its `structuredContent`, failing on a tool error. */
export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`)
  return result.structuredContent as T
}

interface Booking {
  id: string
  status: string
}

/** The status of a booking in the tools' session. */
async function bookingStatus(client: Client, id: string, session?: string) {
  const { items } = await call<{ items: Booking[] }>(client, 'readCollection', {
    name: 'bookings',
    where: { id },
    ...(session ? { session } : {}),
  })
  return items[0]?.status
}

/**
 * The agent's walk: sign in as the host, find a pending booking, decline it, see it in the
 * journal, add a 503 rule, see the app's next call over plain HTTP get 503 in the same
 * session, reset, see the booking pending again.
 */
export async function agentWalk(client: Client): Promise<void> {
  const { session, url } = await call<{ session: string; url: string }>(client, 'getSession')
  const { accessToken } = await call<{ accessToken: string }>(client, 'signIn', {
    persona: 'host',
  })
  const { items } = await call<{ items: Booking[] }>(client, 'readCollection', {
    name: 'bookings',
    where: { status: 'pending', hostId: 'usr_host' },
  })
  const pending = items.map((booking) => booking.id)
  expect(pending).toContain(anchors.bookings.pending)
  const declined = await call<{ status: number; body: unknown }>(client, 'declineBooking', {
    persona: 'host',
    bookingId: anchors.bookings.pending,
    body: { reason: 'Closed that week' },
  })
  // What it changed comes with the answer, over every transport.
  expect(declined).toMatchObject({
    status: 201,
    body: { success: true },
    changes: {
      bookings: { changed: { [anchors.bookings.pending]: { status: ['pending', 'declined'] } } },
      notifications: { created: [expect.stringMatching(/^ntf_n\d{4}$/)] },
    },
  })
  expect(declined).not.toHaveProperty('headers.x-sandbox-changes')
  expect(await bookingStatus(client, anchors.bookings.pending)).toBe('declined')

  const journal = await call<{ requests: { id: string; status: number; persona?: string }[] }>(
    client,
    'queryJournal',
    { operation: 'declineBooking' },
  )
  expect(journal.requests).toHaveLength(1)
  expect(journal.requests[0]).toMatchObject({ status: 201, persona: 'host' })
  const explained = await call<{ request: { body: unknown }; refusedBy: unknown }>(
    client,
    'explainRequest',
    { id: journal.requests[0]!.id },
  )
  expect(explained.request.body).toEqual({ reason: 'Closed that week' })
  expect(explained.refusedBy).toBeNull()

  const rule = await call<{ id: string }>(client, 'addFault', {
    path: '/bookings/:id/decline',
    status: 503,
    retryAfterSeconds: 7,
  })
  // The app's next call, over plain HTTP, in the same session.
  const other = pending.find((id) => id !== anchors.bookings.pending)!
  const app = await fetch(`${url}/bookings/${other}/decline`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      'x-sandbox-session': session,
    },
    body: '{}',
  })
  expect(app.status).toBe(503)
  expect(app.headers.get('retry-after')).toBe('7')
  const refused = await call<{ requests: { id: string; status: number; fault?: string }[] }>(
    client,
    'queryJournal',
    { status: 503 },
  )
  expect(refused.requests.map((entry) => entry.fault)).toEqual([rule.id])
  const why = await call<{ refusedBy: { kind: string; id: string } }>(client, 'explainRequest', {
    id: refused.requests[0]!.id,
  })
  expect(why.refusedBy).toMatchObject({ kind: 'fault rule', id: rule.id })

  expect((await call<{ rules: unknown[] }>(client, 'listFaults')).rules).toMatchObject([
    { id: rule.id, fired: 1 },
  ])
  const reset = await call<{ changes: object }>(client, 'resetSession', {})
  expect(reset.changes).toMatchObject({
    bookings: { changed: { [anchors.bookings.pending]: { status: ['declined', 'pending'] } } },
  })
  expect(await bookingStatus(client, anchors.bookings.pending)).toBe('pending')
  expect((await call<{ rules: unknown[] }>(client, 'listFaults')).rules).toEqual([])
}
