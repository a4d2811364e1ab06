/**
 * The resources: the app and merged documents, the personas, the scenarios and saved
 * snapshots, and a session's journal as HAR, read from the sandbox the connection drives.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { call } from '../../test-support/mcp/test-mcp.ts'
import { createApp } from '../app.ts'
import { createInProcessBackend } from './backend.ts'
import { createMcpServer } from './create-mcp-server.ts'

let client: Client

beforeAll(async () => {
  const { sandbox } = createApp({ quiet: true })
  const server = createMcpServer({
    backend: createInProcessBackend(sandbox, { url: 'http://localhost:4010' }),
    session: 'docs-1',
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'resources', version: '1.0.0' })
  await client.connect(clientSide)
})
afterAll(() => client.close())

async function read(uri: string): Promise<unknown> {
  const { contents } = await client.readResource({ uri })
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' })
  return JSON.parse((contents[0] as { text: string }).text)
}

describe('resources', () => {
  it('lists the documents, personas, scenarios, snapshots and the session’s journal', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual([
      'sandbox://openapi/app.json',
      'sandbox://openapi/merged.json',
      'sandbox://personas',
      'sandbox://scenarios',
      'sandbox://snapshots',
      'sandbox://journal/docs-1.har',
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'sandbox://journal/{session}.har',
      'sandbox://snapshots/{name}.json',
    ])
  })

  it('reads the app document: the 13 operations, no control API, the sandbox as its server', async () => {
    const app = (await read('sandbox://openapi/app.json')) as {
      paths: Record<string, unknown>
      servers: { url: string }[]
    }
    expect(Object.keys(app.paths)).toHaveLength(13)
    expect(Object.keys(app.paths).some((path) => path.startsWith('/__sandbox'))).toBe(false)
    expect(app.servers[0]?.url).toBe('http://localhost:4010')
    const merged = (await read('sandbox://openapi/merged.json')) as { paths: object }
    expect(Object.keys(merged.paths)).toContain('/__sandbox/faults')
  })

  it('reads the personas and the scenarios', async () => {
    const personas = (await read('sandbox://personas')) as { key: string }[]
    expect(personas.map((persona) => persona.key)).toContain('host')
    const scenarios = (await read('sandbox://scenarios')) as { name: string }[]
    expect(scenarios.map((scenario) => scenario.name)).toEqual(
      expect.arrayContaining(['default', 'empty']),
    )
  })

  it('reads a saved snapshot as a scenario file, and a session’s journal as HAR', async () => {
    await call(client, 'declineBooking', { persona: 'host', bookingId: anchors.bookings.pending })
    await call(client, 'saveSnapshot', { name: 'after-decline' })
    const snapshot = (await read('sandbox://snapshots/after-decline.json')) as { name: string }
    expect(snapshot.name).toBe('after-decline')
    const har = (await read('sandbox://journal/docs-1.har')) as {
      log: { entries: { request: { url: string }; response: { status: number } }[] }
    }
    const decline = har.log.entries.find((entry) =>
      entry.request.url.endsWith('/decline?dryRun=false'),
    )
    expect(decline?.response.status).toBe(201)
    // Another session's journal holds none of it.
    const other = (await read('sandbox://journal/someone-else.har')) as { log: { entries: [] } }
    expect(other.log.entries).toEqual([])
  })

  it('refuses a resource it does not have', async () => {
    await expect(client.readResource({ uri: 'sandbox://nothing' })).rejects.toThrow(
      /Unknown resource sandbox:\/\/nothing/,
    )
  })
})
