/**
 * A third-party client against `platform-sandbox mcp`: the MCP Inspector's command-line
 * mode lists the tools and calls one, on Node 24 (see `test-support/mcp/test-inspector.ts`).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { installInspector, runInspector } from '../../test-support/mcp/test-inspector.ts'
import { BIN } from '../../test-support/mcp/test-mcp.ts'

let inspector: Awaited<ReturnType<typeof installInspector>>
beforeAll(async () => {
  inspector = await installInspector((line) => console.log(`mcp inspector: ${line}`))
}, 600_000)

const SERVER = [process.execPath, BIN, 'mcp', '--port', '0']

describe('the MCP Inspector CLI against the stdio server', () => {
  it('lists every tool', async () => {
    const listed = JSON.parse(await runInspector(inspector, [...SERVER, '--method', 'tools/list']))
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name)
    expect(names).toHaveLength(32)
    expect(names).toEqual(expect.arrayContaining(['declineBooking', 'addFault', 'queryJournal']))
  }, 120_000)

  it('calls a tool with arguments', async () => {
    const answered = JSON.parse(
      await runInspector(inspector, [
        ...SERVER,
        '--method',
        'tools/call',
        '--tool-name',
        'readCollection',
        '--tool-arg',
        'name=bookings',
        '--tool-arg',
        'where={"id":"bkg_pending"}',
      ]),
    )
    expect(answered.isError).toBeFalsy()
    expect(answered.structuredContent).toMatchObject({
      items: [{ id: 'bkg_pending', status: 'pending' }],
      next: null,
      total: 1,
    })
  }, 120_000)
})
