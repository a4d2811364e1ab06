/**
 * The agent's walk through the SDK's own client, over both ways in: `platform-sandbox mcp`
 * over stdio (starting its sandbox, attaching to a running one, driving `--url`) and
 * `/__sandbox/mcp` over Streamable HTTP on the very server the app uses.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterEach, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import { agentWalk, BIN, call, connectHttp, connectStdio } from '../../test-support/mcp/test-mcp.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'

let clients: Client[] = []
let servers: TestServer[] = []
afterEach(async () => {
  for (const client of clients) await client.close()
  for (const server of servers) await server.close()
  clients = []
  servers = []
})

async function started(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options)
  servers.push(server)
  return server
}

describe('platform-sandbox mcp (stdio)', () => {
  it('starts a sandbox, says where on stderr, and walks the agent through it', async () => {
    const { client, stderr } = await connectStdio([BIN, 'mcp', '--port', '0'])
    clients.push(client)
    const { url } = await call<{ url: string }>(client, 'getSession')
    // localhost, as the server's banner says: the app's sign-in cookie then reaches the sandbox.
    expect(url).toMatch(/^http:\/\/localhost:\d+$/)
    expect(stderr()).toContain(`sandbox on ${url}`)
    const health = await fetch(`${url}/__sandbox/health`)
    expect(health.status).toBe(200)
    await agentWalk(client)
  }, 60_000)

  it('attaches to the sandbox already answering on the port: the app and the agent share it', async () => {
    const server = await started()
    const { client, stderr } = await connectStdio([BIN, 'mcp', '--port', String(server.port)])
    clients.push(client)
    expect(stderr()).toContain(`attached to the sandbox already running at`)
    expect((await call<{ url: string }>(client, 'getSession')).url).toBe(
      `http://localhost:${server.port}`,
    )
    await agentWalk(client)
    // The tools act on the server this test started: a decline lands in its store.
    await call(client, 'declineBooking', { persona: 'host', bookingId: anchors.bookings.pending })
    const store = await server.sandbox.store('default')
    expect(store.bookings.get(anchors.bookings.pending)?.status).toBe('declined')
  }, 60_000)

  it('drives --url with the control token of SANDBOX_CONTROL_TOKEN, in the --session named', async () => {
    const server = await started({ controlToken: 'mcp-secret' })
    const { client } = await connectStdio(
      [BIN, 'mcp', '--url', server.url, '--session', 'agent-1'],
      { SANDBOX_CONTROL_TOKEN: 'mcp-secret' },
    )
    clients.push(client)
    expect(await call(client, 'getSession')).toEqual({ session: 'agent-1', url: server.url })
    await agentWalk(client)
    expect(server.sandbox.sessionIds()).toContain('agent-1')
  }, 60_000)

  it('says what the control API refused when --url is given without its token', async () => {
    const server = await started({ controlToken: 'mcp-secret' })
    const { client } = await connectStdio([BIN, 'mcp', '--url', server.url])
    clients.push(client)
    const result = await client.callTool({ name: 'listFaults', arguments: {} })
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain('401: The control API requires a token')
  }, 60_000)
  it('says no sandbox answers at --url, until one does', async () => {
    // Nothing listens on the port until the sandbox below starts on it.
    const port = freePortSync()
    const gone = `http://127.0.0.1:${port}`
    const { client, stderr } = await connectStdio([BIN, 'mcp', '--url', gone])
    clients.push(client)
    expect(stderr()).toContain(`no sandbox answers at ${gone} yet: the tools fail until one does`)
    const refused = await client.callTool({ name: 'listFaults', arguments: {} })
    expect(refused.isError).toBe(true)
    expect(refused.content).toEqual([
      { type: 'text', text: `listFaults failed: no sandbox answers at ${gone} (ECONNREFUSED)` },
    ])
    const server = await started({ port })
    expect(await call(client, 'listFaults')).toEqual({ rules: [] })
    await call(client, 'addFault', { path: '/bookings/:id/decline', networkError: true })
    const rules = await (await fetch(`${server.url}/__sandbox/faults`)).json()
    expect(rules).toMatchObject([{ path: '/bookings/:id/decline', networkError: true }])
    // A connection made and then broken by the rule is the sandbox's network error.
    const broken = await client.callTool({
      name: 'declineBooking',
      arguments: { persona: 'host', bookingId: anchors.bookings.pending },
    })
    expect(JSON.stringify(broken.content)).toContain('The sandbox broke the connection')
  }, 60_000)
})

describe('/__sandbox/mcp (Streamable HTTP)', () => {
  it('walks the agent through the server the app uses', async () => {
    const server = await started()
    const client = await connectHttp(`${server.url}/__sandbox/mcp`)
    clients.push(client)
    expect(await call(client, 'getSession')).toEqual({ session: 'default', url: server.url })
    await agentWalk(client)
  })

  it('walks the agent through with the control token as a static header, in the configured session', async () => {
    const server = await started({ controlToken: 'mcp-secret' })
    const client = await connectHttp(`${server.url}/__sandbox/mcp`, {
      authorization: 'Bearer mcp-secret',
      'x-sandbox-session': 'worker-3',
    })
    clients.push(client)
    expect((await call<{ session: string }>(client, 'getSession')).session).toBe('worker-3')
    await agentWalk(client)
  })
})
