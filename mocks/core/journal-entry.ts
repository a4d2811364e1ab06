/**
 * @module
 * What the journal keeps of one request: the entry every view shows (the control API,
 * the dashboard, the HAR export).
 */

export interface JournalEntry {
  method: string
  path: string
  query: Record<string, string>
  status: number
  /** `true`/`false` for operations that carry `dryRun`, `null` for the others. */
  dryRun: boolean | null
  session: string
  /** ISO time the request arrived. */
  time: string
  durationMs: number
  /** The operationId, or `null` for an unknown route. */
  operationId: string | null
  /** The signed-in caller: a persona key, or the user's public id. */
  persona?: string
  /** Why the answer is not the operation's own: a fault rule's id, or `prefer`. */
  fault?: string
  /** `true` when that fault answered what a gateway would (429, 502, 503, 504). */
  gateway?: true
  /**
   * `true` on the request that created its session from the scenario: the session's
   * first use, or its first use again after it was evicted or dropped. Absent otherwise.
   */
  sessionCreated?: true
}
