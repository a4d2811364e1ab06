/**
 * @module
 * The `x-sandbox-session-created` header: a session made again from its scenario (first use,
 * after eviction or a drop) says so, so a QA run that lost its state can tell.
 */
import type { SandboxResponse } from './http.ts'

export const SESSION_CREATED_HEADER = 'x-sandbox-session-created'

/** `response` with `x-sandbox-session-created: true` when `created`. */
export function markSessionCreated(response: SandboxResponse, created: boolean): SandboxResponse {
  if (!created) return response
  return { ...response, headers: { ...response.headers, [SESSION_CREATED_HEADER]: 'true' } }
}
