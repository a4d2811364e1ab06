/**
 * The task an agent was given ("the host's booking screen: pending bookings with a Decline
 * button, the error state when the API is down, the guest's notification"), replayed with the
 * SDK's client and counted: every call is answered without a wasted one, a write says what it
 * changed, and the three calls an agent wasted before each get the answer that saves them.
 * The tool list is lean: titles, annotations, at most 25,000 characters.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { getPersona } from '../../fixtures/personas.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import { createApp } from '../app.ts'
import { createInProcessBackend } from './backend.ts'
import { createMcpServer } from './create-mcp-server.ts'

let client: Client
let sandbox: Sandbox
const calls: { name: string; result: CallToolResult }[] = []

beforeAll(async () => {
  sandbox = createApp({ quiet: true }).sandbox
  const server = createMcpServer({
    backend: createInProcessBackend(sandbox, { url: 'http://127.0.0.1:4010' }),
    session: 'screen',
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'agent-task', version: '1.0.0' })
  await client.connect(clientSide)
})
afterAll(() => client.close())

/** One tool call of the agent, kept; its structured content. */
async function tool<T = Record<string, unknown>>(name: string, args: object = {}) {
  const result = (await client.callTool({ name, arguments: { ...args } })) as CallToolResult
  calls.push({ name, result })
  return { result, value: result.structuredContent as T, text: textOf(result) }
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

/** The app's own request, in the session the tools act on. */
async function appCall(url: string, authorization: string) {
  return sandbox.handle({
    method: 'POST',
    url,
    headers: { authorization, 'content-type': 'application/json', 'x-sandbox-session': 'screen' },
    body: '{}',
  })
}

interface Booking {
  id: string
  status: string
}

describe('the booking screen, built by an agent', () => {
  it('takes nine calls, none refused, and each write says what it changed', async () => {
    const { value: signedIn } = await tool<{ authorization: string }>('signIn', { persona: 'host' })
    const { value: page } = await tool<{ items: Booking[] }>('readCollection', {
      name: 'bookings',
      where: { status: 'pending', hostId: getPersona('host').publicId },
      fields: ['id', 'status'],
    })
    const pending = page.items.map((booking) => booking.id)
    expect(pending).toEqual(
      expect.arrayContaining([anchors.bookings.pending, anchors.bookings.pending2]),
    )

    const { value: declined } = await tool<{ changes: Record<string, { created?: string[] }> }>(
      'declineBooking',
      { persona: 'host', bookingId: anchors.bookings.pending },
    )
    expect(declined).toMatchObject({
      status: 201,
      body: { success: true },
      changes: {
        bookings: { changed: { [anchors.bookings.pending]: { status: ['pending', 'declined'] } } },
      },
    })
    // The guest's notification, named by the change: read it, without reading two collections.
    const [notification] = declined.changes.notifications!.created!
    const { value: seen } = await tool<{ items: { userId: string; kind: string }[] }>(
      'readCollection',
      { name: 'notifications', where: { id: notification } },
    )
    expect(seen.items).toMatchObject([
      { userId: getPersona('guest').publicId, kind: 'booking.declined' },
    ])

    // The error state: the API down for the app's session.
    const { value: rule } = await tool<{ id: string }>('addFault', {
      path: '/bookings/:id/decline',
      status: 503,
    })
    const down = await appCall(
      `/bookings/${anchors.bookings.pending2}/decline`,
      signedIn.authorization,
    )
    expect(down.status).toBe(503)

    // The journal: the app's requests, with what each write changed; the tools' sign-ins left out.
    const { value: journal } = await tool<{ requests: Record<string, unknown>[] }>('queryJournal')
    expect(journal.requests.map((entry) => [entry.operationId, entry.status])).toEqual([
      ['declineBooking', 201],
      ['declineBooking', 503],
    ])
    expect(journal.requests[0]).toMatchObject({ changes: declined.changes })
    expect(journal.requests[1]).toMatchObject({ fault: rule.id, gateway: true })
    const { value: faults } = await tool<{ rules: object[] }>('listFaults')
    expect(faults.rules).toMatchObject([{ id: rule.id, fired: 1 }])
    await tool('removeFault', { all: true })
    const { value: reset } = await tool<{ changes: object }>('resetSession')
    expect(reset.changes).toEqual({
      bookings: {
        changed: {
          [anchors.bookings.pending]: {
            status: ['declined', 'pending'],
          },
        },
      },
      notifications: { deleted: [notification] },
    })
    expect(calls.map(({ name }) => name)).toEqual([
      'signIn',
      'readCollection',
      'declineBooking',
      'readCollection',
      'addFault',
      'queryJournal',
      'listFaults',
      'removeFault',
      'resetSession',
    ])
    for (const { name, result } of calls) {
      expect(result.isError, name).toBeUndefined()
      // One compact text copy of the structured content.
      expect(result.content).toEqual([
        { type: 'text', text: JSON.stringify(result.structuredContent) },
      ])
    }
  })
})

describe('the three calls an agent wasted, answered', () => {
  it('a filter on a value no record holds says which values the field holds', async () => {
    const { result, value } = await tool<{ total: number; hint: string }>('readCollection', {
      name: 'notifications',
      where: { userId: 'guest' },
    })
    expect(result.isError).toBeUndefined()
    expect(value.total).toBe(0)
    expect(value.hint).toContain(getPersona('guest').publicId)
    const guessed = await tool('readCollection', {
      name: 'notifications',
      where: { recipient: 'x' },
    })
    expect(guessed.result.isError).toBe(true)
    expect(guessed.text).toContain('where may name only: id, userId, kind')
    const { value: described } = await tool<{ fields: Record<string, object> }>(
      'describeCollection',
      { name: 'notifications' },
    )
    expect(described).toMatchObject({
      key: 'id',
      fields: {
        userId: { type: 'string' },
        readAt: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
      },
    })
  })

  it('a field of the body is named where it goes, missing or given beside it', async () => {
    const missing = await tool('signContract', {
      persona: 'host',
      contractId: anchors.contracts.unsigned,
    })
    expect(missing.result.isError).toBe(true)
    expect(missing.text).toContain('- body.fullName is required')
    const beside = await tool('signContract', {
      persona: 'host',
      contractId: anchors.contracts.unsigned,
      fullName: 'Hana Host',
    })
    expect(beside.text).toContain(
      'property fullName should not exist: it goes in body (body.fullName)',
    )
  })

  it('prompts/list answers with the guide’s walks', async () => {
    const { prompts } = await client.listPrompts()
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'set-up-screen-data',
      'reproduce-error-state',
    ])
    const walk = await client.getPrompt({
      name: 'reproduce-error-state',
      arguments: { operationId: 'declineBooking', status: '503' },
    })
    expect(JSON.stringify(walk.messages)).toContain(
      'addFault { \\"method\\": \\"POST\\", \\"path\\": \\"/bookings/:bookingId/decline\\", \\"status\\": 503 }',
    )
    await expect(
      client.getPrompt({ name: 'reproduce-error-state', arguments: {} }),
    ).rejects.toThrow('operationId is required')
  })
})

describe('what to do next, in the result of a refusal', () => {
  it('a 404 names where the ids are listed; a 403 the role, or the persona that owns the record', async () => {
    const missing = await tool('declineBooking', { persona: 'host', bookingId: 'bkg_nope' })
    expect(missing.result.isError).toBeUndefined()
    expect(missing.value).toMatchObject({
      status: 404,
      body: { message: 'Booking "bkg_nope" not found' },
      hint: 'Known ids: readCollection { "name": "bookings" }',
    })
    const notTheHost = await tool('declineBooking', {
      persona: 'guest',
      bookingId: anchors.bookings.pending,
    })
    expect(notTheHost.value).toMatchObject({
      status: 403,
      hint: `Call as the owner: only booking ${anchors.bookings.pending}'s hostId may: ${getPersona('host').publicId} (persona host)`,
    })
    const notAdmin = await tool('approveReview', {
      persona: 'host',
      listingId: anchors.venues.withPendingReview,
    })
    expect(notAdmin.value).toMatchObject({
      status: 403,
      hint: 'Needs the admin role: persona admin',
    })
    const signedOut = await tool('declineBooking', { bookingId: anchors.bookings.pending })
    expect(signedOut.value).toMatchObject({
      status: 401,
      hint: 'Give persona (a key of listPersonas) or accessToken',
    })
  })

  it('a 400 of the API names the field with its place, as a result', async () => {
    const above = await tool('testRefundWebhook', {
      body: { bookingId: anchors.bookings.paid, amount: 1e9 },
    })
    expect(above.result.isError).toBeUndefined()
    expect(above.value).toMatchObject({
      status: 400,
      hint: expect.stringMatching(/^Change: body\.amount must not be greater than/),
    })
  })
})

describe('the tool list', () => {
  it('fits 25,000 characters, every tool with a title and annotations true to what it does', async () => {
    const { tools } = await client.listTools()
    expect(JSON.stringify({ tools }).length).toBeLessThanOrEqual(25_000)
    for (const listed of tools) {
      expect(listed.title, listed.name).toBeTruthy()
      expect(listed.annotations, listed.name).toMatchObject({ openWorldHint: false })
    }
    const annotations = Object.fromEntries(tools.map((listed) => [listed.name, listed.annotations]))
    expect(annotations.readCollection).toMatchObject({ readOnlyHint: true })
    expect(annotations.declineBooking).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(annotations.createCheckoutSession).toMatchObject({
      destructiveHint: false,
      idempotentHint: false,
    })
    expect(annotations.addFault).toMatchObject({ readOnlyHint: false, idempotentHint: false })
    expect(annotations.resetSession).toMatchObject({ destructiveHint: true, idempotentHint: true })
    expect(JSON.stringify(tools)).not.toMatch(
      /starts_with|9007199254740991|x-sandbox-session header \(HTTP\)/,
    )
  })
})
