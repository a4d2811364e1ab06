/**
 * @module
 * A session's fault rules and clock in a shared store: each change (a rule added, fired or drawn,
 * the clock moved) noted in its log under the version check, the last note read back on load.
 */
import { type CompiledRule, type FaultRule, seededRandom } from './fault-rules.ts'
import type { SessionRecord, SessionRegistry } from './sessions.ts'
import {
  type LoggedChange,
  type LoggedControl,
  type SessionLog,
  StaleCopyError,
} from './state-store.ts'

export type SessionControl = Pick<SessionRecord, 'faults' | 'clockOffsetMs'>
export type ControlChange = <T>(record: SessionRecord, run: () => T | Promise<T>) => Promise<T>

/** The record's fault rules and clock, as noted. */
function noted({ faults, clockOffsetMs }: SessionControl): LoggedControl['control'] {
  const rules = faults?.rules.map(({ rule, remaining, fired, random: { state } }) => {
    return { rule, remaining: Number.isFinite(remaining) ? remaining : null, fired, random: state }
  })
  return {
    faults: faults ? { rules: rules!, created: faults.created } : null,
    clockOffsetMs: clockOffsetMs ?? null,
  }
}

/**
 * The fault rules and clock `changes` leave: their last note since their last reset, its rules
 * compiled again by `compile` (one this sandbox cannot compile, its operations changed, is left).
 */
export function controlOf(
  changes: readonly LoggedChange[],
  compile: (rule: FaultRule) => CompiledRule,
): SessionControl {
  let last: LoggedControl['control'] | undefined
  for (const change of changes) {
    if ('reset' in change) last = undefined
    else if ('control' in change) last = change.control
  }
  const rules = (last?.faults?.rules ?? []).flatMap((state) => {
    try {
      const compiled = compile(state.rule)
      compiled.remaining = state.remaining ?? Number.POSITIVE_INFINITY
      compiled.fired = state.fired
      compiled.random.state = state.random
      return [compiled]
    } catch {
      return []
    }
  })
  const faults = last?.faults ? { rules, created: last.faults.created } : undefined
  return { faults, clockOffsetMs: last?.clockOffsetMs ?? undefined }
}

/**
 * Runs `run`, a change of a session's fault rules or clock: with a shared store, in its queue,
 * noted when it changed (refused: undone; stale: run once more on the session loaded again).
 */
export function controlChanges(
  sessions: SessionRegistry,
  log: SessionLog | undefined,
): ControlChange {
  return async (record, run) => {
    if (!log?.note) return run()
    return sessions.run(record, async () => {
      for (let attempt = 0; ; attempt++) {
        const { faults, clockOffsetMs } = record
        const before = JSON.stringify(noted(record))
        // `run` changes a copy of the rules, so that a refused note leaves them as they were.
        const copy = (rule: CompiledRule) => ({ ...rule, random: seededRandom(rule.random.state) })
        record.faults = faults && { created: faults.created, rules: faults.rules.map(copy) }
        try {
          const result = await run()
          const after = noted(record)
          if (JSON.stringify(after) !== before) await log.note!(record.id, { control: after })
          return result
        } catch (error) {
          Object.assign(record, { faults, clockOffsetMs })
          if (!(error instanceof StaleCopyError) || attempt > 0) throw error
          await sessions.reload(record)
        }
      }
    })
  }
}
