/**
 * @module
 * The control API's shapes: a route of its table, the call a handler is given, and the narrow
 * view of the sandbox the core gives it (so the control API does not depend on the core).
 */

import type { Persona, Scenario } from '../model/content.ts'
import type { Store } from '../model/store.ts'
import type { z } from '../model/zod.ts'
import type { SessionClocks } from './clock.ts'
import type { ResetResult } from './events.ts'
import type { FaultRegistry } from './faults.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import type { RequestJournal } from './journal.ts'
import type { Operation } from './operation.ts'
import type { ResetOptions, SandboxSettings, SandboxUsage } from './sandbox-types.ts'
import type { SavedSnapshots } from './saved-snapshots.ts'
import type { ScenarioInputs } from './scenario-files.ts'

/** A session in memory, with the scenario and seed it started from. */
export interface SessionSummary {
  id: string
  scenario: string
  seed: number
}

export interface ControlContext {
  readonly ready: Promise<void>
  readonly settings: SandboxSettings
  readonly personas: readonly Persona[]
  readonly operations: readonly Operation[]
  readonly scenarios: Readonly<Record<string, Scenario>>
  readonly journal: RequestJournal
  readonly faults: FaultRegistry
  readonly clocks: SessionClocks
  readonly snapshots: SavedSnapshots
  readonly openapiDocument: (() => unknown) | undefined
  reset(options?: ResetOptions): Promise<ResetResult>
  store(session?: string): Promise<Store>
  addScenarios(inputs: ScenarioInputs): Scenario[]
  sessionIds(): string[]
  describeSessions(): SessionSummary[]
  dropSession(session: string): void
  usage(): SandboxUsage
}

/**
 * Who may call a route: `public` always (a load balancer's health check); `control` needs
 * `Authorization: Bearer <control token>` when the sandbox has one, and is open otherwise.
 */
export type ControlAccess = 'public' | 'control'

/** One control call, as a handler is given it. */
export interface ControlCall {
  sandbox: ControlContext
  /** The session the request names (`default` when it names none). */
  session: string
  /** Path parameters, decoded. */
  params: Record<string, string>
  query: URLSearchParams
  request: SandboxRequest
  /** The body, read and checked against the route's `body` schema. */
  body: unknown
}

export interface ControlRoute {
  method: 'GET' | 'POST' | 'DELETE'
  /** The full path, with `{param}` segments, as the merged document names it. */
  path: string
  access: ControlAccess
  /** The JSON body it reads; absent for routes without a body. */
  body?: z.core.$ZodType
  /** Its path parameters (decoded), checked before the handler runs: 400 otherwise. */
  params?: z.ZodMiniObject
  /** The query parameters it reads, checked before the handler runs: 400 otherwise. */
  query?: z.ZodMiniObject
  /** Answers the call in every runtime. Absent for the Node server's console routes. */
  handle?: (call: ControlCall) => Promise<SandboxResponse> | SandboxResponse
  /** A script a console page loads: served, but not part of the API document. */
  asset?: true
  /**
   * The standalone server's MCP endpoint (Streamable HTTP): a protocol of its own, not an
   * operation of the API document.
   */
  mcp?: true
}

export interface ControlMatch {
  route: ControlRoute
  /** Path parameters as sent (still percent-encoded). */
  params: Record<string, string>
}
