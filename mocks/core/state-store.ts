/**
 * @module
 * What outlives a process, behind one seam: each session's log and last use, saved snapshots and
 * uploaded scenarios (`SandboxOptions.store`). A write is applied once logged (a failure refuses
 * it, 503, nothing changed), a session not in memory is loaded from its log, a start restores the
 * rest. `memoryStore` keeps them in this process, `server/state-dir.ts` in files; every store
 * passes `test-support/state-store.contract.ts`. Where the core cannot wait (a drop, an eviction,
 * a delete), a store that answers later handles its own failure.
 */
import { SandboxError } from './errors.ts'
import type { JournalEntry, JournalExport } from './events.ts'
import type { FaultRule } from './fault-rules.ts'
import type { SandboxRequest } from './http.ts'
import { ScenarioError, type SnapshotChanges } from './scenario-files.ts'

type Step = void | Promise<void>

export interface LoggedWrite {
  time: string
  request: SandboxRequest
}

export interface LoggedReset {
  reset: { scenario: string; seed: number; snapshot?: string }
}

/** A rule's state: as listed, with the calls left (`null`: no `times`) and its draws' state. */
export interface FaultRuleState {
  rule: FaultRule
  remaining: number | null
  fired: number
  random: number
}

/** A shared store's note of the fault rules and clock after a change: the last one wins. */
export interface LoggedControl {
  control: {
    faults: { rules: FaultRuleState[]; created: number } | null
    clockOffsetMs: number | null
  }
}

export type LoggedChange = LoggedWrite | LoggedReset | LoggedControl

export interface SessionLog {
  /**
   * The session's changes, oldest first, or `undefined` when it has no log; it is used now.
   * Throws a `SandboxError` (503) when the log cannot be read as it is: the session answers that.
   */
  load(session: string): Promise<LoggedChange[] | undefined>
  /** Appends a write before it is applied; throws a `SandboxError` (503) to refuse it. */
  write(session: string, write: LoggedWrite): Step
  /** Its log becomes that one reset. May refuse too. */
  reset(session: string, reset: LoggedReset['reset']): Step
  drop(session: string): Step
  /** Marks it used now (a session evicted past the cap keeps its log). */
  touch(session: string): Step
  /** The sessions it has a log of; with `unusedSince`, those not used since (retention). */
  list(unusedSince?: Date): Promise<string[]>
  /** What could not be restored as it was (a snapshot deleted since), one line. */
  warn?(message: string): void
  /**
   * A store shared by several processes: whether the session's copy this process loaded or last
   * wrote is still the latest (one round trip). Then `write` throws a {@link StaleCopyError}
   * when it is not, and the core loads the session again.
   */
  current?(session: string): Promise<boolean>
  /** A store shared by several processes: appends a note as `write` does (stale: refused). */
  note?(session: string, note: LoggedControl): Promise<void>
  /**
   * A store shared by several processes: every session it holds a log of, most recently used
   * first, with the reset its log starts from (none: the starting scenario).
   */
  describe?(): Promise<{ id: string; reset?: LoggedReset['reset'] }[]>
}

/** A write refused because another process wrote the session since this one loaded it. */
export class StaleCopyError extends SandboxError {
  constructor(session: string) {
    super(
      503,
      `Session "${session}" changed on another instance while this one answered: nothing was changed, try again`,
      ['the session was written by another instance twice in a row; retry the request'],
      { 'retry-after': '1' },
    )
  }
}

export interface SavedSnapshotInfo {
  name: string
  /** The scenario and seed the saved state descends from. */
  scenario: string
  seed: number
  session: string
  savedAt: string
  records: number
}

/** A saved snapshot as what it changes on top of its scenario (`info.scenario` at `info.seed`). */
export interface SavedSnapshotRecord {
  info: SavedSnapshotInfo
  idSequence: number
  changes: SnapshotChanges
}

/** A document kept, or why it cannot be read; its problems start with `source` (a file). */
export type Kept<T> = { source: string; value: T } | { source: string; problems: string[] }

/** Documents kept by name; a save replaces the one of that name whole. */
export interface KeptByName<T> {
  /** Where they are (a folder), for messages. */
  readonly where: string
  /** In name order. */
  list(): Promise<Kept<T>[]>
  /** With `replace: false`, a name another process took meanwhile is a 409. */
  save(name: string, value: T, options?: { replace?: boolean | undefined }): Step
  delete(name: string): Step
}

/** The journals of a shared store, capped: each session's and every session's (lossy). */
export interface SharedJournal {
  add(exported: JournalExport): void
  /** Oldest first: one session's, or every session's in the order they came. */
  list(session?: string): Promise<JournalExport[]>
  clear(session?: string): Promise<void>
  /** Calls `listener` with each entry any process adds from now on; returns the unsubscribe. */
  follow(listener: (entry: JournalEntry) => void): () => void
}

export interface StateStore {
  sessions: SessionLog
  /** A store shared by several processes: the journals too. */
  journal?: SharedJournal
  snapshots: KeptByName<SavedSnapshotRecord>
  /** The scenario files uploaded (`POST /__sandbox/scenarios`), as sent. */
  scenarios: KeptByName<unknown>
  /**
   * Resolves when the store can take writes now, else throws a `SandboxError` (503) saying why:
   * the server's readiness (`GET /__sandbox/ready`). Absent: always ready.
   */
  ready?(): Promise<void>
  /** A store shared by several processes: changes whenever a snapshot or scenario does. */
  keptVersion?(): Promise<string>
}

function keptInMemory<T>(where: string): KeptByName<T> {
  const kept = new Map<string, T>()
  return {
    where,
    list: async () =>
      [...kept.keys()].sort().map((source) => ({ source, value: kept.get(source)! })),
    save: (name, value) => void kept.set(name, structuredClone(value)),
    delete: (name) => void kept.delete(name),
  }
}

/** A store in this process: the sandboxes given the same one share what it keeps. */
export function memoryStore(): StateStore {
  const logs = new Map<string, { changes: LoggedChange[]; usedAt: number }>()
  const use = (session: string, changes = logs.get(session)?.changes) => {
    if (changes) logs.set(session, { changes, usedAt: Date.now() })
    return changes
  }
  return {
    sessions: {
      load: async (session) => structuredClone(use(session)),
      write: (session, write) => {
        use(session, logs.get(session)?.changes ?? [])!.push(structuredClone(write))
      },
      reset: (session, reset) => void use(session, [{ reset: { ...reset } }]),
      drop: (session) => void logs.delete(session),
      touch: (session) => void use(session),
      list: async (since) =>
        [...logs].filter(([, log]) => !since || log.usedAt < since.getTime()).map(([id]) => id),
    },
    snapshots: keptInMemory('memory'),
    scenarios: keptInMemory('memory'),
  }
}

/** The problems of restoring `kept` with `restore`, each starting with its source; none once done. */
export async function restoreKept<T>(
  kept: Kept<T>,
  restore: (value: T) => unknown,
): Promise<string[]> {
  if ('problems' in kept) return kept.problems
  try {
    await restore(kept.value)
    return []
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error
    return error.problems.map((problem) => `${kept.source}: ${problem}`)
  }
}

/**
 * Restores what `store` keeps: the uploaded scenarios (added together: one may extend another),
 * then the saved snapshots. Throws a `ScenarioError` listing every problem.
 */
export async function restoreStore(
  store: StateStore,
  addScenarios: (files: unknown[]) => unknown,
  restoreSnapshot: (record: SavedSnapshotRecord) => unknown,
): Promise<void> {
  const fail = (what: string, { where }: KeptByName<unknown>, problems: string[]) => {
    if (problems.length === 0) return
    const message = `Failed to restore the ${what} of ${where} (fix or remove the file)`
    throw new ScenarioError(message, problems)
  }
  const scenarios = await store.scenarios.list()
  const files = scenarios.flatMap((kept) => ('value' in kept ? [kept.value] : []))
  fail('uploaded scenarios', store.scenarios, [
    ...scenarios.flatMap((kept) => ('problems' in kept ? kept.problems : [])),
    ...(await restoreKept({ source: store.scenarios.where, value: files }, addScenarios)),
  ])
  const problems: string[] = []
  for (const kept of await store.snapshots.list())
    problems.push(...(await restoreKept(kept, restoreSnapshot)))
  fail('saved snapshots', store.snapshots, problems)
}
