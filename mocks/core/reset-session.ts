/**
 * @module
 * Putting a session back to a start (the sandbox's scenario and seed unless told otherwise),
 * and a durable session brought back: its logged changes applied again, as they ran.
 */
import { createStore, type Snapshot, type Store } from '../model/store.ts'
import { badRequest } from './errors.ts'
import { announce } from './events.ts'
import { parseCookies, splitUrl } from './http.ts'
import type { Operation } from './operation.ts'
import { pipelineInput, runPipeline } from './pipeline.ts'
import type { ResetOptions, ResetResult, SandboxParts } from './sandbox-types.ts'
import { ScenarioError } from './scenario-files.ts'
import { DEFAULT_SESSION } from './session-id.ts'
import type { LoggedChange, LoggedReset } from './state-store.ts'

export function createReset(parts: SandboxParts) {
  const { sessions, cache, sessionLog } = parts
  const { settings, scenarios, snapshots: saved, events } = parts.sandbox

  /**
   * A new record, so the journal, faults, clock and replay position go with the old one. With a
   * log, the reset is written first: an unreadable log or a failed write refuses it unchanged.
   */
  async function start(session: string, snapshot: Snapshot, result: ResetResult) {
    if (sessionLog) {
      const { record } = await sessions.open(session)
      if (record.unavailable) throw record.unavailable
      const { scenario, seed, snapshot: named } = result
      await sessionLog.reset(session, { scenario, seed, ...(named ? { snapshot: named } : {}) })
    }
    sessions.replace(session, createStore(snapshot))
    announce(events, 'session:reset', result)
    return result
  }

  return async function reset(resetOptions: ResetOptions = {}): Promise<ResetResult> {
    const session = resetOptions.session ?? DEFAULT_SESSION
    const { snapshot: named, scenario: asked, seed: askedSeed } = resetOptions
    if (named !== undefined) {
      if (asked !== undefined || askedSeed !== undefined) {
        throw badRequest('Validation failed', ['give either snapshot, or scenario and seed'])
      }
      const snapshot = saved.get(named)
      await parts.sandbox.ready
      return start(session, snapshot, {
        session,
        scenario: snapshot.scenario,
        seed: snapshot.seed,
        snapshot: named,
      })
    }
    // One meaning in every runtime: what the options do not name is the sandbox's start.
    const scenario = asked ?? settings.scenario
    const seed = askedSeed ?? settings.seed
    if (!Object.hasOwn(scenarios, scenario)) {
      throw badRequest('Unknown scenario', [
        `scenario must be one of: ${Object.keys(scenarios).join(', ')}`,
      ])
    }
    await parts.sandbox.ready
    let snapshot: Snapshot
    try {
      snapshot = await cache.load(scenario, seed)
    } catch (error) {
      if (error instanceof ScenarioError)
        throw badRequest(error.message.split(':\n')[0]!, [...error.problems])
      throw error
    }
    return start(session, snapshot, { session, scenario, seed })
  }
}

/**
 * The snapshot a logged reset put `session` on, or the nearest one still known (a saved
 * snapshot deleted since: its scenario; a scenario not loaded now: the starting one), warned.
 */
async function loggedResetSnapshot(
  parts: SandboxParts,
  session: string,
  reset: LoggedReset['reset'],
): Promise<Snapshot> {
  const { snapshot, scenario, seed } = reset
  const { snapshots } = parts.sandbox
  const saved = snapshot !== undefined && snapshots.list().some((info) => info.name === snapshot)
  if (snapshot !== undefined && saved) return snapshots.get(snapshot)
  if (snapshot !== undefined) {
    parts.sessionLog?.warn?.(
      `session "${session}" was reset to snapshot "${snapshot}", deleted since: restored on top of "${scenario}" (seed ${seed}) instead`,
    )
  }
  if (Object.hasOwn(parts.sandbox.scenarios, scenario)) return parts.cache.load(scenario, seed)
  parts.sessionLog?.warn?.(
    `session "${session}" was reset to scenario "${scenario}", not loaded now: restored on top of the starting scenario instead`,
  )
  return parts.starting()
}

type OperationAt = (
  method: string,
  path: string,
) => { operation: Operation; params: Record<string, string> } | undefined

/** Applies logged changes to `store`, each write at its instant; the last reset's store wins. */
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
