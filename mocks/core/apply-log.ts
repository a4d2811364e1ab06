/**
 * @module
 * A durable session brought back: its logged changes applied to a store, oldest first, as
 * they ran, each write through its operation's pipeline at the instant it first ran.
 */
import { createStore, type Store } from '../model/store.ts'
import { parseCookies, splitUrl } from './http.ts'
import type { Operation } from './operation.ts'
import { pipelineInput, runPipeline } from './pipeline.ts'
import { loggedResetSnapshot } from './reset-session.ts'
import type { SandboxParts } from './sandbox-parts.ts'
import type { LoggedChange } from './session-log.ts'

/** The operation a method and path lead to, with the path's params. */
type OperationAt = (
  method: string,
  path: string,
) => { operation: Operation; params: Record<string, string> } | undefined

/** Applies a session's logged changes to `store`; returns the store the last reset left. */
export function createLogApplier(parts: SandboxParts, operationAt: OperationAt) {
  return async (store: Store, session: string, changes: LoggedChange[]): Promise<Store> => {
    let current = store
    for (const change of changes) {
      if ('reset' in change) {
        current = createStore(await loggedResetSnapshot(parts, session, change.reset))
        continue
      }
      const { request: logged, time } = change
      const { path, query } = splitUrl(logged.url)
      const found = operationAt(logged.method.toUpperCase(), path)
      if (!found) continue
      const at = new Date(time)
      const cookies = parseCookies(logged.headers.cookie)
      await runPipeline(
        found.operation,
        pipelineInput(logged, found.params, query, cookies),
        current,
        { ...parts.pipelineSettings, now: () => at },
      )
    }
    return current
  }
}
