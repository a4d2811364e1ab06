/**
 * @module
 * Makes the creation of a session visible. A session is created from its scenario on
 * first use, and again after it was evicted (past `maxSessions`) or dropped: a QA run
 * whose state was lost must be able to tell, so the request that created it gets a
 * response header and a journal entry that says so.
 */
import type { SandboxResponse } from './http.ts'

export const SESSION_CREATED_HEADER = 'x-sandbox-session-created'

/** `response` with `x-sandbox-session-created: true` when `created`. */
export function markSessionCreated(response: SandboxResponse, created: boolean): SandboxResponse {
  if (!created) return response
  return { ...response, headers: { ...response.headers, [SESSION_CREATED_HEADER]: 'true' } }
}
