/**
 * @module
 * The control rows the server answers itself, before the sandbox: the console (`console/`) and
 * the MCP endpoint (`mcp-route.ts`). The server hands them to its sandbox (`controlRoutes`), which
 * routes them with its own rows; the merged document lists them; other runtimes have none.
 */
import { type ControlRoute, createRouter, journalSessionQuerySchema } from '../mocks/core/index.ts'

/** `asset`: a script a console page loads, not in the document; `mcp`: JSON-RPC, not REST. */
export type ServerRoute = ControlRoute & { asset?: true; mcp?: true }

export const serverRoutes: readonly ServerRoute[] = [
  { method: 'GET', path: '/__sandbox/', access: 'public' },
  { method: 'GET', path: '/__sandbox/dashboard.js', access: 'public', asset: true },
  { method: 'GET', path: '/__sandbox/docs', access: 'public' },
  { method: 'GET', path: '/__sandbox/docs/scalar.js', access: 'public', asset: true },
  { method: 'GET', path: '/__sandbox/events', access: 'control', query: journalSessionQuerySchema },
  // The probe of its store, and its Prometheus metrics (metrics.ts).
  { method: 'GET', path: '/__sandbox/ready', access: 'public' },
  { method: 'GET', path: '/__sandbox/metrics', access: 'control' },
  { method: 'POST', path: '/__sandbox/mcp', access: 'control', mcp: true },
  { method: 'GET', path: '/__sandbox/mcp', access: 'control', mcp: true },
  { method: 'DELETE', path: '/__sandbox/mcp', access: 'control', mcp: true },
]

/** The server's row of a method and a full path, if it is one (its `value`). */
export const matchServerRoute = createRouter(serverRoutes.map((value) => ({ ...value, value })))
