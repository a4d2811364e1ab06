/**
 * @module
 * The one assembly of a sandbox: given its content (operations, personas, scenarios: data) and
 * its options (the plugged stages among them), it makes the sessions, journal, fault rules,
 * clocks and snapshots, the request pass over them, and the `SandboxCore` every runtime calls.
 */
import { invariant } from 'outvariant'
import type { Scenario } from '../model/content.ts'
import { createStore, type Snapshot } from '../model/store.ts'
import { personaNames } from './caller.ts'
import { isControlPath } from './control.ts'
import { SandboxError } from './errors.ts'
import { announce, createSandboxEvents } from './events.ts'
import { compileRule, type FaultRule } from './fault-rules.ts'
import { FaultRegistry, faultStage } from './faults.ts'
import { createRequestPass } from './handle-request.ts'
import { SessionJournals } from './journal.ts'
import { createSessionStarts } from './reset-session.ts'
import { createRouteTable } from './route-table.ts'
import {
  resolveSettings,
  type SandboxContent,
  type SandboxCore,
  type SandboxCoreOptions,
} from './sandbox-types.ts'
import { createSnapshotCache, SavedSnapshots } from './saved-snapshots.ts'
import { checkAddedScenarios, type ScenarioFile, type ScenarioInputs } from './scenario-files.ts'
import { DEFAULT_SESSION } from './session-id.ts'
import { SessionClocks, SessionRegistry } from './sessions.ts'
import { controlChanges, controlOf } from './shared-control.ts'
import { pluggedStage } from './stage.ts'
import { type LoggedChange, restoreStore } from './state-store.ts'
import { userOperations } from './user-operations.ts'

/**
 * A sandbox serving `content`. The entries call `createSandbox(options)` (`mocks/sandbox.ts`),
 * which gives it the built-in content.
 *
 * @example
 * const sandbox = assembleSandbox({ operations, personas, scenarios, defaultSeed: 1, scenarioFiles })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export function assembleSandbox(
  content: SandboxContent,
  options: SandboxCoreOptions = {},
): SandboxCore {
  const settings = resolveSettings(options, content.defaultSeed)
  // Operations of your own: rows of the one table after the built-in ones.
  const operations = options.operations
    ? [
        ...content.operations,
        ...userOperations(options.operations, content.operations, options.checkAnswers),
      ]
    : content.operations
  const files = content.scenarioFiles
  const scenarios: Record<string, Scenario> = Object.assign(
    Object.create(null),
    content.scenarios,
    files.resolve(options.scenarios ?? [], content.scenarios, settings),
  )
  invariant(
    Object.hasOwn(scenarios, settings.scenario),
    'Failed to create the sandbox: unknown scenario "%s" (known: %s)',
    settings.scenario,
    Object.keys(scenarios).join(', '),
  )
  invariant(
    Number.isSafeInteger(settings.seed) && settings.seed >= 0,
    'Failed to create the sandbox: seed must be a non-negative integer, got %s',
    settings.seed,
  )
  const { onOperation, store: kept } = options
  const sessionLog = kept?.sessions
  const stages = options.stages ?? []
  const events = createSandboxEvents()
  if (onOperation) events.on('operation:applied', ({ data }) => onOperation(data))
  const cache = createSnapshotCache(scenarios, settings)
  let startingSnapshot: Snapshot | undefined
  // With a store, the uploaded scenarios and saved snapshots it keeps come back first.
  const ready = cache.load(settings.scenario, settings.seed).then(async (snapshot) => {
    startingSnapshot = snapshot
    const restore = (found: unknown[]) => add(resolve(found as ScenarioFile[]))
    keptVersion = await kept?.keptVersion?.()
    if (kept) await restoreStore(kept, restore, snapshots.restore)
  })
  const starting = () => {
    invariant(startingSnapshot, 'Failed to create a session: the sandbox is not ready')
    return startingSnapshot
  }
  /** A session not in memory: from its log, with a store; else from the starting scenario. */
  async function open(session: string) {
    await ready
    const fresh = createStore(starting())
    let changes: LoggedChange[] | undefined
    try {
      changes = await sessionLog?.load(session)
      const control = sessionLog?.note ? controlOf(changes ?? [], compile) : undefined
      if (changes === undefined) return { store: fresh, created: true, control }
      // A reset to a snapshot or scenario another process saved since this one read them.
      if (changes.some((change) => 'reset' in change && !knows(change.reset))) await refreshKept()
      return { store: await starts.applyLog(fresh, session, changes), created: false, control }
    } catch (error) {
      // A store out of reach for now (`Retry-After`) answers this request only.
      if (error instanceof SandboxError && !error.headers['retry-after'])
        return { store: fresh, created: false, unavailable: error }
      throw error
    }
  }
  const compile = (rule: FaultRule) =>
    compileRule(rule, rule.id, 0, operations, rule.persona === undefined ? [] : [rule.persona])
  const knows = ({ scenario, snapshot }: { scenario: string; snapshot?: string | undefined }) =>
    snapshot === undefined
      ? Object.hasOwn(scenarios, scenario)
      : snapshots.list().some(({ name }) => name === snapshot)
  let keptVersion: string | undefined
  /** Reads again what a shared store keeps, when another process changed it. */
  async function refreshKept() {
    await ready
    const version = await kept?.keptVersion?.()
    if (version === undefined || version === keptVersion) return
    const restore = (found: unknown[]) => add(resolve(found as ScenarioFile[]))
    await restoreStore(kept!, restore, snapshots.restore)
    const names = (await kept!.snapshots.list()).map(({ source, ...entry }) =>
      'value' in entry ? entry.value.info.name : source,
    )
    snapshots.keepOnly(new Set(names))
    keptVersion = version
  }
  const sessions = new SessionRegistry({
    maxSessions: settings.maxSessions,
    open,
    openNow: sessionLog ? undefined : () => createStore(starting()),
    onRelease: (record) => {
      journal.forget(record)
      for (const stage of stages) stage.rewind?.(record.id)
      sessionLog?.touch(record.id)
    },
  })
  const journal = new SessionJournals(
    sessions,
    { perSession: settings.journalLimit, total: settings.journalTotalLimit },
    options.writeJournalHar,
    options.loadJournalHar,
    kept?.journal,
  )
  events.on('request:end', ({ data }) => journal.record(data.entry, data.exchange))
  const changeControl = controlChanges(sessions, sessionLog)
  const faults = new FaultRegistry(sessions, changeControl)
  const snapshots = new SavedSnapshots({
    store: (session) => sandbox.store(session),
    isScenario: (name) => Object.hasOwn(scenarios, name),
    loadSnapshot: cache.load,
    now: settings.now,
    files,
    kept: kept?.snapshots,
  })
  const added = new Set<string>()
  function resolve(inputs: ScenarioInputs): Record<string, Scenario> {
    const resolved = files.resolve(inputs, scenarios, {
      seed: settings.seed,
      replaceable: (name) => added.has(name),
    })
    checkAddedScenarios(added, resolved)
    return resolved
  }
  function add(resolved: Record<string, Scenario>): Scenario[] {
    for (const [name, scenario] of Object.entries(resolved)) {
      scenarios[name] = scenario
      added.add(name)
      cache.forget(name)
    }
    return Object.values(resolved)
  }

  const sandbox: SandboxCore = {
    ready,
    events,
    journal,
    faults,
    clocks: new SessionClocks(sessions, settings.now),
    personas: content.personas,
    operations,
    scenarios,
    settings,
    openapiDocument: options.openapiDocument,
    stages,
    snapshots,
    handle: (request, matched) => handle(request, matched),
    route(method, path) {
      // Every route under the control prefix is `control`.
      if (isControlPath(path)) return 'control'
      const found = routes.match(method.toUpperCase(), path)
      if (!found) return undefined
      return routes.isOperation(found.value) ? { operation: found.value } : 'control'
    },
    answers: (method, path) => sandbox.route(method, path) !== undefined,
    reset: (resetOptions) => starts.reset(resetOptions),
    resetAll: (resetOptions = {}) => {
      for (const session of sessions.ids()) {
        if (session !== DEFAULT_SESSION) sandbox.dropSession(session)
      }
      for (const stage of stages) stage.rewind?.()
      return starts.reset(resetOptions)
    },
    refreshKept,
    async changeControl(session, run) {
      if (!sessionLog?.note) return run()
      await sandbox.store(session)
      return changeControl(sessions.use(session)!, run)
    },
    store: async (session = DEFAULT_SESSION) => {
      const cached = sessions.use(session)
      // In a shared store, the copy in memory is checked against it (another process may write).
      if (cached && sessionLog?.current && !(await sessionLog.current(session)))
        await sessions.run(cached, () => sessions.reload(cached))
      const record = cached ?? (await sessions.open(session))
      if (record.unavailable) throw record.unavailable
      return record.store
    },
    addScenarios: (inputs) => add(resolve(inputs)),
    uploadScenario: async (file) => {
      const resolved = resolve([file as ScenarioFile])
      await kept?.scenarios.save(Object.keys(resolved)[0]!, file)
      return add(resolved)[0]!
    },
    dropSession: (session) => {
      // The log first: a drop its log refuses leaves the session as it was.
      sessionLog?.drop(session)
      journal.shared?.clear(session).catch(() => undefined)
      sessions.delete(session)
      announce(events, 'session:dropped', { session })
    },
    sessionIds: () => sessions.ids(),
    describeSessions: async (caller) => {
      const here = [...sessions.records()]
        .filter((record) => record.unavailable === undefined)
        .map(({ id, store: { snapshot } }) => ({
          id,
          scenario: snapshot.scenario,
          seed: snapshot.seed,
        }))
        .reverse()
      const stored = await sessionLog?.describe?.()
      if (!stored) return here
      // The store's account (a copy held here may be one another process dropped or reset
      // since), and the caller, if it has no log yet: every process lists the same.
      const listed = new Set(stored.map(({ id }) => id))
      return [
        ...here.filter(({ id }) => id === caller && !listed.has(id)),
        ...stored.map(({ id, reset }) => ({
          id,
          scenario: reset?.scenario ?? settings.scenario,
          seed: reset?.seed ?? settings.seed,
        })),
      ]
    },
    get sessionCount() {
      return sessions.size
    },
    usage: async () => ({
      sessions: sessions.size,
      maxSessions: settings.maxSessions,
      journalEntries: journal.size,
      journalLimit: settings.journalLimit,
      journalTotalLimit: settings.journalTotalLimit,
      faultRules: faults.size,
      ...(await storeSessions()),
    }),
  }
  /**
   * The sessions a shared store holds, unless it cannot tell within half a second: health is
   * the liveness probe, and must answer whatever the store does.
   */
  async function storeSessions() {
    if (!sessionLog?.current) return {}
    let late = (_: undefined) => {}
    const timeout = new Promise<undefined>((resolve) => {
      late = resolve
    })
    const timer = setTimeout(late, 500)
    const ids = await Promise.race([sessionLog.list().catch(() => undefined), timeout])
    clearTimeout(timer)
    return ids ? { storeSessions: ids.length } : {}
  }
  const routes = createRouteTable(operations, options.controlRoutes)
  const starts = createSessionStarts(sandbox, sessions, cache, starting, sessionLog, routes)
  // The fault rules, then the plugged stages (recorded answers): only a sandbox with plugged
  // stages waits for them.
  const plugged = [faultStage(faults, personaNames(content.personas))]
  if (stages.length > 0) plugged.push(pluggedStage(stages))
  const handle = createRequestPass(sandbox, sessions, routes, plugged, options)
  return sandbox
}
