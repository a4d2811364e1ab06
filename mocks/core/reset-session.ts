/**
 * @module
 * Putting a session back to a start (the sandbox's scenario and seed unless told otherwise),
 * and a durable session brought back: its logged changes applied again, as they ran.
 */
import { createStore, type Snapshot, type Store } from '../model/store.ts'
import { badRequest, SandboxError } from './errors.ts'
import { announce } from './events.ts'
import { runPipeline } from './pipeline.ts'
import { RequestContext } from './request-context.ts'
import type { RouteTable } from './route-table.ts'
import {
  pipelineSettings,
  type ResetOptions,
  type ResetResult,
  type SandboxCore,
} from './sandbox-types.ts'
import type { SnapshotCache } from './saved-snapshots.ts'
import { ScenarioError } from './scenario-files.ts'
import { DEFAULT_SESSION } from './session-id.ts'
import type { SessionRegistry } from './sessions.ts'
import type { LoggedChange, LoggedReset, SessionLog } from './state-store.ts'

/**
 * How `sandbox` puts a session back to a start (`reset`) and brings a durable one back
 * (`applyLog`, its writes through the route table), with its sessions, its cache of scenario
 * snapshots, its starting snapshot (once ready) and its log, if it has one.
 */
export function createSessionStarts(
  sandbox: SandboxCore,
  sessions: SessionRegistry,
  cache: SnapshotCache,
  starting: () => Snapshot,
  sessionLog: SessionLog | undefined,
  routes: RouteTable,
) {
  const { settings, scenarios, snapshots: saved, events } = sandbox
  const base = pipelineSettings(settings)

  /**
   * A new record, so the journal, faults, clock and replay position go with the old one. With a
   * log, the reset is written first: an unreadable log or a failed write refuses it unchanged.
   */
  async function start(session: string, snapshot: Snapshot, result: ResetResult) {
    if (sessionLog) {
      const record = await sessions.open(session)
      if (record.unavailable) throw record.unavailable
      const { scenario, seed, snapshot: named } = result
      await sessionLog.reset(session, { scenario, seed, ...(named ? { snapshot: named } : {}) })
      sandbox.journal.shared?.clear(session).catch(() => undefined)
    }
    sessions.replace(session, createStore(snapshot))
    announce(events, 'session:reset', result)
    return result
  }

  async function reset(resetOptions: ResetOptions = {}): Promise<ResetResult> {
    const session = resetOptions.session ?? DEFAULT_SESSION
    const { snapshot: named, scenario: asked, seed: askedSeed } = resetOptions
    if (named !== undefined) {
      if (asked !== undefined || askedSeed !== undefined) {
        throw badRequest('Validation failed', ['give either snapshot, or scenario and seed'])
      }
      const snapshot = saved.get(named)
      await sandbox.ready
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
    await sandbox.ready
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

  /**
   * The snapshot a logged reset put `session` on, or the nearest one still known (a saved
   * snapshot deleted since: its scenario; a scenario not loaded now: the starting one), warned.
   */
  async function loggedResetSnapshot(
    session: string,
    { snapshot, scenario, seed }: LoggedReset['reset'],
  ): Promise<Snapshot> {
    const kept = snapshot !== undefined && saved.list().some((info) => info.name === snapshot)
    if (snapshot !== undefined && kept) return saved.get(snapshot)
    if (snapshot !== undefined) {
      sessionLog?.warn?.(
        `session "${session}" was reset to snapshot "${snapshot}", deleted since: restored on top of "${scenario}" (seed ${seed}) instead`,
      )
    }
    if (Object.hasOwn(scenarios, scenario)) return cache.load(scenario, seed)
    sessionLog?.warn?.(
      `session "${session}" was reset to scenario "${scenario}", not loaded now: restored on top of the starting scenario instead`,
    )
    return starting()
  }

  /** Applies logged changes to `store`, each write at its instant; the last reset's store wins. */
  async function applyLog(store: Store, session: string, changes: LoggedChange[]): Promise<Store> {
    let current = store
    for (const change of changes) {
      if ('reset' in change) {
        current = createStore(await loggedResetSnapshot(session, change.reset))
        continue
      }
      if (!('request' in change)) continue // a shared store's note of fault rules and clock
      const context = new RequestContext(change.request)
      const found = routes.match(context.method, context.path)
      if (!found || !routes.isOperation(found.value)) {
        // A write of an operation of your own no longer declared: replaying past it would lie.
        const write = `${context.method} ${context.path}`
        const problem = `Session "${session}" cannot be loaded: its log holds a write of ${write}, which no operation of this sandbox answers`
        throw new SandboxError(503, problem, [
          'declare that operation again (--operations), or run platform-sandbox state repair <dir> --operations <file> to set the log aside from that write',
        ])
      }
      const at = new Date(change.time)
      context.params = found.params
      context.settings = { ...base, now: () => at }
      await runPipeline(found.value, context, current)
    }
    return current
  }

  return { reset, applyLog }
}
