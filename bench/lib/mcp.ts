/**
 * @module
 * What the MCP endpoint adds on top of the SDK: a tool call that adds a fault rule over
 * `/__sandbox/mcp` (Streamable HTTP) against a no-op tool on the same transport and
 * connection (`getSession`, which reaches nothing of the sandbox), with the same control
 * API call made directly (`POST /__sandbox/faults`) reported beside it. Each rule added is
 * removed, untimed, through the control API, so every call adds to the same empty list.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Pinning } from './pinning.ts'
import type { Figure } from './report.ts'
import { startChildServer } from './servers.ts'
import { servers } from './settings.ts'
import { median } from './stats.ts'

export interface McpFigures {
  /** Median milliseconds per call, of the median round. */
  noOpMs: number
  addFaultMs: number
  directMs: number
  calls: number
  rounds: number
}

const RULE = { path: '/bookings/:id/decline', status: 503 }

/** Median time of `once`; `after` runs between calls, untimed. */
async function timed(
  calls: number,
  once: () => Promise<void>,
  after?: () => Promise<void>,
): Promise<number> {
  const times: number[] = []
  for (let index = 0; index < calls; index++) {
    const started = performance.now()
    await once()
    times.push(performance.now() - started)
    await after?.()
  }
  return median(times)
}

/** `calls` of each, in `rounds` alternating rounds, after a warm-up. */
export async function measureMcp(pinning: Pinning, calls = 300, rounds = 5): Promise<McpFigures> {
  const server = await startChildServer(pinning, servers.sandbox.script, servers.sandbox.args)
  const client = new Client({ name: 'bench', version: '1.0.0' })
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/__sandbox/mcp`)))
    const removeRule = async (id: string) => {
      const removed = await fetch(`${server.url}/__sandbox/faults/${id}`, { method: 'DELETE' })
      if (removed.status !== 204) throw new Error(`Failed to remove fault ${id}: ${removed.status}`)
    }
    const noOp = async () => {
      const result = await client.callTool({ name: 'getSession', arguments: {} })
      if (result.isError) throw new Error('getSession failed')
    }
    let lastRule = ''
    const addFault = async () => {
      const result = await client.callTool({ name: 'addFault', arguments: RULE })
      if (result.isError) throw new Error(`addFault failed: ${JSON.stringify(result.content)}`)
      lastRule = (result.structuredContent as { id: string }).id
    }
    const direct = async () => {
      const added = await fetch(`${server.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(RULE),
      })
      lastRule = ((await added.json()) as { id: string }).id
    }
    const measured = { noOp: [] as number[], addFault: [] as number[], direct: [] as number[] }
    for (let round = -1; round < rounds; round++) {
      // Each add timed alone; its removal is not. Round -1 warms up.
      const noOpMs = await timed(calls, noOp)
      const addFaultMs = await timed(calls, addFault, () => removeRule(lastRule))
      const directMs = await timed(calls, direct, () => removeRule(lastRule))
      // The SDK's transport gives every request the same abort signal, and undici lets go of
      // each request's listener on it only when the request is collected: collect between
      // rounds (untimed), or Node warns of a possible leak once 1,500 calls are pending it.
      globalThis.gc?.()
      await new Promise((resolve) => setImmediate(resolve))
      if (round < 0) continue
      measured.noOp.push(noOpMs)
      measured.addFault.push(addFaultMs)
      measured.direct.push(directMs)
    }
    return {
      noOpMs: median(measured.noOp),
      addFaultMs: median(measured.addFault),
      directMs: median(measured.direct),
      calls,
      rounds,
    }
  } finally {
    await client.close()
    await server.stop()
  }
}

export function mcpFigures(figures: McpFigures): Figure[] {
  const note = `median per call, median of ${figures.rounds} rounds of ${figures.calls}`
  return [
    {
      group: 'MCP over HTTP (/__sandbox/mcp)',
      name: 'addFault tool call',
      value: figures.addFaultMs,
      unit: 'ms',
      baselineName: 'no-op tool call (getSession)',
      baseline: figures.noOpMs,
      goal: { kind: 'max', ratio: 1.5 },
      note,
    },
    {
      group: 'MCP over HTTP (/__sandbox/mcp)',
      name: 'addFault tool call',
      value: figures.addFaultMs,
      unit: 'ms',
      baselineName: 'POST /__sandbox/faults directly',
      baseline: figures.directMs,
      note: 'the same control call without MCP, reported beside it',
    },
  ]
}
