/**
 * The tool of an operation of your own answers as the 13's do: its summary and description
 * listed, `query.limit` a number, the `hint` after a refusal, a query field given beside `query`
 * named as belonging there.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import examples from '../../examples/operations/index.mjs'
import { personaIds } from '../../fixtures/personas.ts'
import type { AnyOperationDeclaration } from '../../mocks/core/index.ts'
import { type OperationKit, operationKit } from '../../mocks/operation-kit.ts'
import { createApp } from '../app.ts'
import { createInProcessBackend } from './backend.ts'
import { createMcpServer } from './create-mcp-server.ts'

const hostScreens = examples as unknown as (kit: OperationKit) => AnyOperationDeclaration[]

let client: Client
let listed: Tool[]

beforeAll(async () => {
  const { sandbox } = createApp({ quiet: true, operations: hostScreens(operationKit) })
  const server = createMcpServer({
    backend: createInProcessBackend(sandbox, { url: 'http://127.0.0.1:4010' }),
    operations: sandbox.operations,
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'own-tools', version: '1.0.0' })
  await client.connect(clientSide)
  listed = (await client.listTools()).tools
})
afterAll(() => client.close())

const callTool = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult

describe('the tool of an operation of your own', () => {
  it('is described by its summary and the first sentence of its description', () => {
    const tool = listed.find((candidate) => candidate.name === 'listHostBookings')!
    expect(tool.title).toBe(
      "The signed-in host's bookings, newest first, filtered by status and paged",
    )
    expect(tool.description).toBe(
      "The signed-in host's bookings, newest first, filtered by status and paged: The host screen lists its bookings to act on them (Accept, Decline): the reference publishes declining one (row 8) but no list of them, so a screen cannot show the real status after a reload.",
    )
    const { query } = tool.inputSchema.properties as Record<string, { properties: object }>
    expect(query?.properties).toMatchObject({
      limit: { type: 'integer', minimum: 1, maximum: 200 },
    })
  })

  it('takes query.limit as a number and pages by it', async () => {
    const first = await callTool('listHostBookings', { persona: 'host', query: { limit: 2 } })
    expect(first.isError).toBeUndefined()
    const page = first.structuredContent as {
      status: number
      body: { items: { id: string }[]; next: string; total: number }
    }
    expect(page.status).toBe(200)
    expect(page.body.items).toHaveLength(2)
    expect(page.body.total).toBeGreaterThan(2)
    const second = await callTool('listHostBookings', {
      persona: 'host',
      query: { limit: 2, cursor: page.body.next },
    })
    const next = (second.structuredContent as { body: { items: { id: string }[] } }).body.items
    expect(next).toHaveLength(2)
    expect(next.map((b) => b.id)).not.toContain(page.body.items[0]?.id)
    const refused = await callTool('listHostBookings', { persona: 'host', query: { limit: 0 } })
    expect(refused.isError).toBe(true)
    expect(refused.content).toEqual([
      {
        type: 'text',
        text: 'Invalid arguments for listHostBookings\n- query.limit must be from 1 to 200',
      },
    ])
  })

  it('gives the hint of the 13 after a refusal: the role and who has it', async () => {
    const guest = await callTool('listHostBookings', { persona: 'guest' })
    expect(guest.structuredContent).toMatchObject({
      status: 403,
      body: { message: 'This operation requires the host role' },
      hint: 'Needs the host role: persona host, host-restricted, host-pending',
    })
    const profile = await callTool('getUserProfile', { userId: personaIds.host })
    expect(profile.structuredContent).toMatchObject({ status: 200 })
    expect(profile.structuredContent).not.toHaveProperty('hint')
  })

  it('names a query field given beside query as belonging there', async () => {
    const misplaced = await callTool('listHostBookings', { persona: 'host', status: 'pending' })
    expect(misplaced.isError).toBe(true)
    expect(misplaced.content).toEqual([
      {
        type: 'text',
        text: 'Invalid arguments for listHostBookings\n- property status should not exist: it goes in query (query.status)',
      },
    ])
  })
})
