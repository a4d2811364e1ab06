import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, describe, expect, it } from 'vitest'
import { installNode24 } from '../consumer/legs.mjs'
import { getPersona } from '../fixtures/personas.ts'
import { BIN, call, connectStdio } from '../test-support/mcp/test-mcp.ts'
import { startTestCli, type TestCli } from '../test-support/server/test-cli.ts'
import { loadOperationsFile, stripsTypes } from './operations-file.ts'

const examples = fileURLToPath(new URL('../examples/operations/index.mjs', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'sandbox-operations-ts-'))
const typed = join(folder, 'operations.ts')
writeFileSync(
  typed,
  `import type { OperationKit } from 'platform-sandbox'

export default ({ defineOperation, z }: OperationKit) => [
  defineOperation({
    id: 'countMyBookings', method: 'GET', path: '/me/booking-count', summary: 'How many bookings the caller hosts',
    auth: 'signedIn', responses: { 200: { schema: z.object({ count: z.number() }) } },
    answer: ({ collections, caller }) => ({ count: collections.bookings.filter((b) => b.hostId === caller!.publicId).length }),
  }),
]
`,
)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function countAt(url: string) {
  const refreshed = await fetch(`${url}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: getPersona('host').refreshToken }),
  })
  const { accessToken } = (await refreshed.json()) as { accessToken: string }
  const answer = await fetch(`${url}/me/booking-count`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  return { status: answer.status, body: await answer.json() }
}

describe('operations of your own as a TypeScript file', () => {
  let cli: TestCli | undefined
  afterAll(() => cli?.stop())

  it('serves a .ts file on Node 24 (it strips the types)', { timeout: 300_000 }, async () => {
    const node24 = join(await installNode24(() => {}), 'node')
    cli = startTestCli(['--operations', typed], { node: node24 })
    const { status, body } = await countAt(await cli.url)
    expect(status).toBe(200)
    expect(body).toEqual({ count: expect.any(Number) })
    expect((body as { count: number }).count).toBeGreaterThan(0)
  })

  it('refuses it on a Node older than 22.18, saying so', async () => {
    await expect(loadOperationsFile(typed, '22.17.1')).rejects.toThrow(
      `${typed}: a TypeScript file needs Node 22.18 or later (it strips the types itself); this is Node 22.17.1: upgrade Node, or write the file as .mjs`,
    )
    expect([stripsTypes('20.20.2'), stripsTypes('22.18.0'), stripsTypes('24.1.0')]).toEqual([
      false,
      true,
      true,
    ])
  })
})

describe('platform-sandbox mcp --operations <file>', () => {
  let client: Client | undefined
  afterAll(() => client?.close())

  it('offers a tool per operation of your own, by its id', async () => {
    ;({ client } = await connectStdio([BIN, 'mcp', '--port', '0', '--operations', examples]))
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(
      expect.arrayContaining(['listHostBookings', 'getUserProfile', 'declineBooking']),
    )
    const answer = await call<{ status: number; body: { items: { status: string }[] } }>(
      client,
      'listHostBookings',
      { persona: 'host', query: { status: 'pending', limit: '20' } },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.items.length).toBeGreaterThan(0)
    expect(answer.body.items.every((item) => item.status === 'pending')).toBe(true)
  })
})

describe('platform-sandbox mcp --url <a sandbox with operations of its own>', () => {
  let cli: TestCli | undefined
  let remote: Client | undefined
  let local: Client | undefined
  afterAll(async () => {
    await remote?.close()
    await local?.close()
    await cli?.stop()
  })

  it('offers the same tool per operation as in process, from what that sandbox serves', async () => {
    cli = startTestCli(['--operations', examples])
    ;({ client: remote } = await connectStdio([BIN, 'mcp', '--url', await cli.url]))
    ;({ client: local } = await connectStdio([BIN, 'mcp', '--port', '0', '--operations', examples]))
    const own = ['listHostBookings', 'listMyNotifications', 'getUserProfile']
    const toolsOf = async (client: Client) =>
      (await client.listTools()).tools.filter((tool) => own.includes(tool.name))
    const listed = await toolsOf(remote)
    expect(listed.map((tool) => tool.name).sort()).toEqual([...own].sort())
    expect(listed).toEqual(await toolsOf(local))

    const answer = await call<{ status: number; body: { items: { status: string }[] } }>(
      remote,
      'listHostBookings',
      // `limit` a number, as the served document says (`type: integer`).
      { persona: 'host', query: { status: 'pending', limit: 20 } },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.items.length).toBeGreaterThan(0)
    expect(answer.body.items.every((item) => item.status === 'pending')).toBe(true)
    const profile = await call<{ status: number; body: unknown }>(remote, 'getUserProfile', {
      userId: 'usr_host',
    })
    expect(profile).toMatchObject({ status: 200, body: { publicId: 'usr_host' } })
    // The same answer as the app gets from that sandbox.
    const direct = await fetch(`${await cli.url}/users/usr_host/profile`)
    expect(profile.body).toEqual(await direct.json())
  })
})
