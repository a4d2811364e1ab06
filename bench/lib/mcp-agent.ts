/**
 * @module
 * What the MCP tools cost an agent's context, and what a write's change summary costs the
 * sandbox. `tools/list` in characters against its 25,000 budget; the agent's walk (the host's
 * booking screen, as `server/mcp/agent-task.test.ts` replays it) in characters returned, beside
 * the same answers as the tools gave them before (pretty-printed text plus the structured copy);
 * `createCheckoutSession`, a write that can be repeated, with the summary on and off in
 * alternating rounds of one process (`changeSummaries`, the switch only this bench turns).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { anchors } from '../../fixtures/anchors.ts'
import { getPersona } from '../../fixtures/personas.ts'
import { changeSummaries } from '../../mocks/core/index.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { SESSION_HEADER, signIn } from '../../mocks/sandbox-client/sandbox-client.ts'
import { createInProcessBackend } from '../../server/mcp/backend.ts'
import { createMcpServer } from '../../server/mcp/create-mcp-server.ts'
import type { Figure } from './report.ts'
import { collectGarbage, median } from './stats.ts'

export interface McpAgentFigures {
  toolsListCharacters: number
  tools: number
  walkCalls: number
  /** Characters of every result of the walk, as the tools answer them. */
  walkCharacters: number
  /** The same results as the tools answered them before: pretty text plus the structured copy. */
  walkCharactersBefore: number
  summaryOnMicros: number
  summaryOffMicros: number
  writes: number
  rounds: number
}

const TOOLS_LIST_BUDGET = 25_000
/** Writes in a row on one side. */
const RUN = 100

/** The walk of the task, call by call, and the characters each result takes. */
async function measureWalk() {
  const sandbox = createSandbox()
  await sandbox.ready
  const server = createMcpServer({
    backend: createInProcessBackend(sandbox, { url: 'http://127.0.0.1:4010' }),
    session: 'screen',
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'bench', version: '1.0.0' })
  await client.connect(clientSide)
  try {
    const toolsList = JSON.stringify(await client.listTools())
    const results: CallToolResult[] = []
    const call = async (name: string, args: object = {}) => {
      const result = (await client.callTool({ name, arguments: { ...args } })) as CallToolResult
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`)
      results.push(result)
      return result.structuredContent as Record<string, unknown>
    }
    const { authorization } = await call('signIn', { persona: 'host' })
    const hostId = getPersona('host').publicId
    await call('readCollection', { name: 'bookings', where: { status: 'pending', hostId } })
    const declined = await call('declineBooking', {
      persona: 'host',
      bookingId: anchors.bookings.pending,
    })
    const changes = declined.changes as { notifications: { created: string[] } }
    const [created] = changes.notifications.created
    await call('readCollection', { name: 'notifications', where: { id: created } })
    await call('addFault', { path: '/bookings/:id/decline', status: 503 })
    // The app's call, in the session the tools act on: its 503 is what the journal shows.
    await sandbox.handle({
      method: 'POST',
      url: `/bookings/${anchors.bookings.pending2}/decline`,
      headers: {
        authorization: String(authorization),
        'content-type': 'application/json',
        [SESSION_HEADER]: 'screen',
      },
      body: '{}',
    })
    for (const name of ['queryJournal', 'listFaults']) await call(name)
    await call('removeFault', { all: true })
    await call('resetSession')
    const before = (result: CallToolResult) =>
      JSON.stringify({
        content: [{ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) }],
        structuredContent: result.structuredContent,
      }).length
    return {
      toolsListCharacters: toolsList.length,
      tools: (JSON.parse(toolsList) as { tools: unknown[] }).tools.length,
      walkCalls: results.length,
      walkCharacters: results.reduce((total, result) => total + JSON.stringify(result).length, 0),
      walkCharactersBefore: results.reduce((total, result) => total + before(result), 0),
    }
  } finally {
    await client.close()
  }
}

/**
 * A repeated `createCheckoutSession` with the summary on and off, alternating write by write so
 * that a machine shared with other work slows both sides alike: the median µs of each side's
 * writes, over `batches` batches of `writes` (a collection between batches, untimed).
 */
async function measureSummaryCost(writes: number, batches: number) {
  const sandbox = createSandbox()
  const token = await signIn(sandbox, 'guest')
  const request = {
    method: 'POST',
    url: '/checkout/create-session',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      [SESSION_HEADER]: 'bench-summary',
    },
    body: JSON.stringify({ bookingId: anchors.bookings.accepted }),
  }
  const times = { on: [] as number[], off: [] as number[] }
  try {
    // The first batch warms up; the sides take turns every `RUN` writes.
    for (let batch = -1; batch < batches; batch++) {
      collectGarbage()
      for (let index = 0; index < writes; index++) {
        changeSummaries.enabled = (Math.floor(index / RUN) + batch) % 2 === 0
        const started = performance.now()
        const answer = await sandbox.handle(request)
        const micros = (performance.now() - started) * 1000
        if (answer.status !== 201) throw new Error(`createCheckoutSession: ${answer.status}`)
        if (batch >= 0) times[changeSummaries.enabled ? 'on' : 'off'].push(micros)
      }
    }
  } finally {
    changeSummaries.enabled = true
  }
  return { summaryOnMicros: median(times.on), summaryOffMicros: median(times.off) }
}

export async function measureMcpAgent(writes = 2000, rounds = 20): Promise<McpAgentFigures> {
  const walk = await measureWalk()
  return { ...walk, ...(await measureSummaryCost(writes, rounds)), writes, rounds }
}

export function mcpAgentFigures(figures: McpAgentFigures): Figure[] {
  const group = 'MCP for coding agents'
  return [
    {
      group,
      name: `tools/list (${figures.tools} tools)`,
      value: figures.toolsListCharacters,
      unit: 'characters',
      baselineName: 'a 25,000-character budget',
      baseline: TOOLS_LIST_BUDGET,
      goal: { kind: 'max', ratio: 1 },
    },
    {
      group,
      name: `the booking-screen walk, ${figures.walkCalls} calls: characters returned`,
      value: figures.walkCharacters,
      unit: 'characters',
      baselineName: 'the same results as pretty text plus the structured copy',
      baseline: figures.walkCharactersBefore,
      note: 'reported; the agent’s own walk took 40 calls and 90,878 characters before',
    },
    {
      group,
      name: 'createCheckoutSession with its change summary',
      value: figures.summaryOnMicros,
      unit: 'µs',
      baselineName: 'the same write without it',
      baseline: figures.summaryOffMicros,
      goal: { kind: 'max', ratio: 1.05 },
      note: `median per write in process, on and off alternating, ${figures.rounds} batches of ${figures.writes}`,
    },
  ]
}
