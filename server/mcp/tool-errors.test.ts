/**
 * Every tool refuses bad input with a tool error (`isError: true`) that names the field,
 * checked in the tool itself, and the server keeps answering; the refusals of the HTTP API
 * come back the same way, with its message and details.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { createApp } from '../app.ts'
import { createInProcessBackend } from './backend.ts'
import { createMcpServer } from './create-mcp-server.ts'

let client: Client
let listed: Tool[]

beforeAll(async () => {
  const { sandbox } = createApp({ quiet: true })
  const server = createMcpServer({
    backend: createInProcessBackend(sandbox, { url: 'http://127.0.0.1:4010' }),
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'tool-errors', version: '1.0.0' })
  await client.connect(clientSide)
  listed = (await client.listTools()).tools
})
afterAll(() => client.close())

async function callRaw(name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
}

/** A value of the wrong type for a JSON Schema property. */
function wrongValue(schema: { type?: unknown; const?: unknown; enum?: unknown }): unknown {
  if (schema.type === 'string' || schema.enum !== undefined) return 12_345
  if (schema.type === 'object') return 'not an object'
  if (schema.const === true) return 'yes'
  return 'not a number'
}

describe('bad input to every tool', () => {
  it('lists the 13 operations by operationId and the control tools by their names', () => {
    expect(listed.map((tool) => tool.name)).toEqual([
      'refreshToken',
      'getAccountStatus',
      'updateAmbassadorApplicationStatus',
      'sendVenueClaimEmail',
      'approveReview',
      'rejectReview',
      'followUser',
      'declineBooking',
      'signContract',
      'createCheckoutSession',
      'completeIdpSignIn',
      'archiveNotification',
      'testRefundWebhook',
      'listPersonas',
      'signIn',
      'getSession',
      'useSession',
      'listSessions',
      'listScenarios',
      'resetSession',
      'saveSnapshot',
      'listCollections',
      'describeCollection',
      'readCollection',
      'addFault',
      'listFaults',
      'removeFault',
      'getClock',
      'setClock',
      'queryJournal',
      'explainRequest',
      'clearJournal',
    ])
  })

  it('names each argument given a value of the wrong type, for every argument of every tool', async () => {
    let checked = 0
    for (const tool of listed) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, object>
      expect(Object.keys(properties), tool.name).toContain('session')
      for (const [field, schema] of Object.entries(properties)) {
        const result = await callRaw(tool.name, { [field]: wrongValue(schema) })
        expect(result.isError, `${tool.name}.${field}`).toBe(true)
        expect(text(result), `${tool.name}.${field}`).toMatch(new RegExp(`\\b${field}\\b`))
        checked += 1
      }
    }
    expect(checked).toBeGreaterThan(60)
  })

  it('names an argument the tool does not take, for every tool', async () => {
    for (const tool of listed) {
      const result = await callRaw(tool.name, { bookingld: 'typo' })
      expect(result.isError, tool.name).toBe(true)
      expect(text(result), tool.name).toContain('property bookingld should not exist')
    }
  })

  it('names a missing required argument', async () => {
    for (const tool of listed) {
      for (const field of tool.inputSchema.required ?? []) {
        const result = await callRaw(tool.name, {})
        expect(result.isError, tool.name).toBe(true)
        // "is required", or for a choice the values it takes.
        expect(text(result), tool.name).toMatch(
          new RegExp(`- ${field} (is required|must be one of: )`),
        )
      }
    }
  })

  it('names the field of a body the operation refuses, and of a value the API refuses', async () => {
    const tooLong = await callRaw('declineBooking', {
      persona: 'host',
      bookingId: anchors.bookings.pending,
      body: { reason: 'x'.repeat(1001) },
    })
    expect(tooLong.isError).toBe(true)
    expect(text(tooLong)).toContain('body.reason must be shorter than or equal to 1000 characters')
    const both = await callRaw('declineBooking', {
      persona: 'host',
      accessToken: 'token',
      bookingId: anchors.bookings.pending,
    })
    expect(text(both)).toContain('accessToken: give persona or accessToken, not both')
    const persona = await callRaw('signIn', { persona: 'nobody' })
    expect(persona.isError).toBe(true)
    expect(text(persona)).toMatch(/persona must be one of: .*host/)
    const clock = await callRaw('setClock', { now: '2026-01-01T00:00:00Z', advanceSeconds: 5 })
    expect(text(clock)).toContain('give exactly one of now, advanceSeconds, real')
    const rule = await callRaw('addFault', { path: '/nowhere', status: 503 })
    expect(rule.isError).toBe(true)
    expect(text(rule)).toMatch(/^400: /)
    expect(text(rule)).toContain('path')
    const request = await callRaw('explainRequest', { id: 'r999' })
    expect(text(request)).toMatch(/id must be one of r1 to r\d+/)
    const fault = await callRaw('removeFault', { id: 'f404' })
    expect(text(fault)).toContain('404: No fault rule "f404"')
    const snapshot = await callRaw('resetSession', { snapshot: 'never-saved' })
    expect(snapshot.isError).toBe(true)
    expect(text(snapshot)).toContain('never-saved')
  })

  it('keeps the clock in the years 1970 to 9999: its schema says so, the API refuses the rest', async () => {
    const setClock = listed.find((tool) => tool.name === 'setClock')!
    expect(setClock.inputSchema.properties?.advanceSeconds).toMatchObject({
      minimum: -253_402_300_800,
      maximum: 253_402_300_800,
    })
    const huge = await callRaw('setClock', { session: 'mcp-clock', advanceSeconds: -6.15e16 })
    expect(huge.isError).toBe(true)
    expect(text(huge)).toMatch(/advanceSeconds.*-253402300800/)
    const early = await callRaw('setClock', { session: 'mcp-clock', now: '1969-07-20T20:17:00Z' })
    expect(text(early)).toContain('now must be in the years 1970 to 9999')
    await callRaw('setClock', { session: 'mcp-clock', now: '9999-12-30T00:00:00Z' })
    const past = await callRaw('setClock', { session: 'mcp-clock', advanceSeconds: 2 * 86_400 })
    expect(past.isError).toBe(true)
    expect(text(past)).toContain('advanceSeconds would put the clock outside')
    const kept = await callRaw('getClock', { session: 'mcp-clock' })
    expect(JSON.stringify(kept.structuredContent)).toContain('9999-12-30T00:00:0')
    const real = await callRaw('setClock', { session: 'mcp-clock', real: true })
    expect(real.structuredContent).toMatchObject({ real: true })
  })

  it('answers an operation refused for its state as an observation, not a tool error', async () => {
    const result = await callRaw('declineBooking', {
      persona: 'guest',
      bookingId: anchors.bookings.pending,
    })
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    // And the server still answers.
    expect((await callRaw('getClock', {})).isError).toBeUndefined()
  })

  it('says which tools exist when asked for one it does not have', async () => {
    const result = await callRaw('declineBookings', {})
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('name must be one of: refreshToken')
  })
})
