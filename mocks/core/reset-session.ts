/**
 * @module
 * Putting a session back to a starting state: a scenario at a seed, or a saved
 * snapshot. Its journal, fault rules, clock and recorded-answer position go with it.
 * A bare reset returns the session to the sandbox's starting scenario and seed (the
 * ones it was created with); options name another scenario, seed or saved snapshot.
 */
import { createStore, type Snapshot } from '../model/store.ts'
import { ScenarioError } from '../scenarios/compile-scenarios.ts'
import { badRequest } from './errors.ts'
import { announce } from './events.ts'
import type { SandboxParts } from './sandbox-parts.ts'
import type { ResetOptions, ResetResult } from './sandbox-types.ts'
import { DEFAULT_SESSION } from './session-id.ts'

export function createReset(parts: SandboxParts) {
  const { settings, scenarios, sessions, cache, saved, events, sessionLog } = parts

  /**
   * Puts `session` on `snapshot`: a new record, so its journal, faults, clock and replay
   * position go with the old one. With a log, the reset is written first: a session whose
   * log cannot be read, or a reset that cannot be written, is refused and nothing changes.
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
      await parts.ready
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
    await parts.ready
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
