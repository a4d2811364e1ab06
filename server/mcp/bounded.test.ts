/**
 * No caller harms another: a collection of 30 MB answers a bounded page over MCP, and the stdio
 * client, the app, a second stdio agent and an HTTP agent keep their sandbox; the sandbox a
 * stdio `mcp` starts says how long it runs; a result past the cap says how to ask for less.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import { BIN, call, connectHttp, connectStdio } from '../../test-support/mcp/test-mcp.ts'
import { startTestServer } from '../../test-support/server/test-server.ts'
import { createInProcessBackend } from './backend.ts'
import { callTool, RESULT_CAP, type SandboxTool, sessionArgument, toolResult } from './tool.ts'

let clients: Client[] = []
afterEach(async () => {
  for (const client of clients) await client.close()
  clients = []
})

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')

interface Page {
  items: Record<string, unknown>[]
  next: string | null
  total: number
}

describe('readCollection over MCP in the large scenario', () => {
  it('answers bounded pages, and every client and the sandbox keep running', async () => {
    const port = freePortSync()
    const first = await connectStdio([BIN, 'mcp', '--port', String(port), '--scenario', 'large'])
    clients.push(first.client)
    const url = `http://127.0.0.1:${port}`
    // What the app is told: localhost, so that its sign-in cookie reaches the sandbox.
    const appUrl = `http://localhost:${port}`
    expect(first.stderr()).toContain(`sandbox on ${appUrl}`)
    expect(first.stderr()).toContain('stops when the MCP client that started it disconnects')
    expect(first.stderr()).toContain('attach with `platform-sandbox mcp --url`')
    // The message the tool sent before it paged: every record, as text and as structured content.
    const records = await (await fetch(`${url}/__sandbox/collections/bookings`)).json()
    const before = { name: 'bookings', count: records.length, records }
    const text = JSON.stringify(before, null, 2)
    expect(
      JSON.stringify({ content: [{ type: 'text', text }], structuredContent: before }).length,
    ).toBeGreaterThan(29_000_000)

    const page = (await first.client.callTool({
      name: 'readCollection',
      arguments: { name: 'bookings' },
    })) as CallToolResult
    expect(page.isError).toBeFalsy()
    const { items, next, total } = page.structuredContent as unknown as Page
    expect(items).toHaveLength(20)
    expect(total).toBeGreaterThan(45_000)
    expect(textOf(page).length).toBeLessThan(RESULT_CAP)
    const second = await call<Page>(first.client, 'readCollection', {
      name: 'bookings',
      limit: 200,
      cursor: next,
      fields: ['id', 'status'],
    })
    expect(second.items).toHaveLength(200)
    expect(Object.keys(second.items[0]!)).toEqual(['id', 'status'])
    expect(second.items[0]!.id).not.toBe(items[0]!.id)
    const refused = (await first.client.callTool({
      name: 'readCollection',
      arguments: { name: 'bookings', where: { colour: 'red' } },
    })) as CallToolResult
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain('where may name only: id, listingId, guestId, hostId')

    // A second stdio agent attaches, and is told whose sandbox it is; so is an HTTP agent.
    const attached = await connectStdio([BIN, 'mcp', '--port', String(port)])
    clients.push(attached.client)
    expect(attached.stderr()).toContain(`attached to the sandbox already running at ${appUrl}`)
    expect(attached.stderr()).toContain('that sandbox, started by `platform-sandbox mcp`')
    const http = await connectHttp(`${url}/__sandbox/mcp`)
    clients.push(http)
    expect(http.getInstructions()).toContain(
      'stops when the MCP client that started it disconnects',
    )
    for (const [client, shown] of [
      [first.client, appUrl],
      [attached.client, appUrl],
      [http, url],
    ] as const) {
      const session = await call<{ url: string; lifetime?: string }>(client, 'getSession')
      expect(session.url).toBe(shown)
      expect(session.lifetime).toContain('run `npx platform-sandbox` (or the container)')
    }
    // Every client, and the app, is still served.
    expect((await call<Page>(attached.client, 'readCollection', { name: 'users' })).total).toBe(
      (await call<{ counts: { users: number } }>(http, 'listCollections')).counts.users,
    )
    expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200)
    const paged = await fetch(`${url}/__sandbox/collections/notifications?limit=3`)
    expect(((await paged.json()) as Page).items).toHaveLength(3)
  }, 120_000)
})

describe('getSession of a client whose sandbox has gone', () => {
  it('says no sandbox answers at its URL instead of naming it as if it were alive', async () => {
    const server = await startTestServer()
    const { client } = await connectStdio([BIN, 'mcp', '--url', server.url])
    clients.push(client)
    expect(await call(client, 'getSession')).toEqual({ session: 'default', url: server.url })
    await server.close()
    const gone = (await client.callTool({ name: 'getSession', arguments: {} })) as CallToolResult
    expect(gone.isError).toBe(true)
    expect(textOf(gone)).toBe(
      `getSession failed: no sandbox answers at ${server.url} (ECONNREFUSED)`,
    )
  }, 60_000)
})

describe('the cap of a tool result', () => {
  const connection = {
    backend: createInProcessBackend(undefined as never, { url: 'http://unused' }),
    configuredSession: undefined,
    chosenSession: undefined,
  }
  const tool = (size: number): SandboxTool => ({
    name: 'bigTool',
    title: 'A big tool',
    description: 'Answers `size` characters',
    effect: 'read',
    narrow: 'ask for fewer (limit)',
    input: z.strictObject({ session: sessionArgument }),
    run: async () => toolResult({ text: 'x'.repeat(size) }),
  })

  it('passes a result under the cap whole', async () => {
    const result = await callTool(tool(RESULT_CAP - 100), {}, connection)
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toEqual({ text: 'x'.repeat(RESULT_CAP - 100) })
  })

  it('cuts a result past the cap to the cap, as a tool error that says how to ask for less', async () => {
    const result = await callTool(tool(RESULT_CAP * 3), {}, connection)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    const text = textOf(result)
    expect(text.length).toBe(RESULT_CAP)
    expect(text.slice(0, text.indexOf('xxxx') + 4)).toBe(
      'bigTool\'s result is 300011 characters, over the 100000 a tool result may have: ask for fewer (limit). Its beginning:\n{"text":"xxxx',
    )
    expect(text.endsWith('xxxx')).toBe(true)
  })
})
