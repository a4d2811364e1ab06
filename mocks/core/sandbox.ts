/**
 * @module
 * The sandbox: the operation table, the sessions and their stores, the journal
 * and the control API behind one `handle(request)` that every runtime calls. The
 * core is given its content (operations, personas, scenarios); the entry modules
 * supply the built-in ones.
 */
import { invariant } from 'outvariant'
import type { Scenario } from '../model/content.ts'
import { createStore, type Snapshot, type Store } from '../model/store.ts'
import { resolveScenarios, type ScenarioInputs } from '../scenarios/scenario-inputs.ts'
import { SessionClocks } from './clock.ts'
import { SandboxError } from './errors.ts'
import { announce, createSandboxEvents } from './events.ts'
import { FaultRegistry } from './faults.ts'
import { createRequestHandler } from './handle-request.ts'
import { SessionJournals } from './journal.ts'
import type { PipelineSettings } from './pipeline.ts'
import { createReset } from './reset-session.ts'
import type { SandboxParts } from './sandbox-parts.ts'
import type { Sandbox, SandboxContent, SandboxOptions } from './sandbox-types.ts'
import { createSavedSnapshots } from './saved-snapshots.ts'
import { DEFAULT_SESSION } from './session-id.ts'
import type { LoggedChange } from './session-log.ts'
import { SessionRegistry } from './sessions.ts'
import { createSnapshotCache } from './snapshot-cache.ts'

export { CONTROL_PREFIX } from './control-table.ts'
export type {
  OperationEvent,
  ResetOptions,
  ResetResult,
  Sandbox,
  SandboxContent,
  SandboxOptions,
} from './sandbox-types.ts'
export { SESSION_COOKIE, SESSION_HEADER } from './session-id.ts'

const DEV_SECRET = 'platform-sandbox-development-secret-change-me'

/**
 * Assembles a sandbox serving the given content. The entries call `createSandbox(options)`
 * (`mocks/sandbox.ts`), which gives it the built-in content.
 *
 * @example
 * const sandbox = assembleSandbox({ operations, personas, scenarios, defaultSeed: 1 }, { seed: 7 })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export function assembleSandbox(content: SandboxContent, options: SandboxOptions = {}): Sandbox {
  const settings = {
    scenario: options.scenario ?? 'default',
    seed: options.seed ?? content.defaultSeed,
    secret: options.secret ?? DEV_SECRET,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
    strictContract: options.strictContract ?? false,
    maxSessions: options.maxSessions ?? 5000,
    journalLimit: options.journalLimit ?? 1000,
    journalTotalLimit: options.journalTotalLimit ?? 100_000,
    bodyLimitBytes: options.bodyLimitBytes ?? 100 * 1024,
    now: options.now ?? (() => new Date()),
  }
  const scenarios: Record<string, Scenario> = Object.assign(Object.create(null), content.scenarios)
  const cache = createSnapshotCache(scenarios, settings)
  const added = new Set<string>()
  const addScenarios = (inputs: ScenarioInputs): Scenario[] => {
    const resolved = resolveScenarios(inputs, scenarios, {
      seed: settings.seed,
      replaceable: (name) => added.has(name),
    })
    for (const [name, scenario] of Object.entries(resolved)) {
      scenarios[name] = scenario
      added.add(name)
      cache.forget(name)
    }
    return Object.values(resolved)
  }
  Object.assign(scenarios, resolveScenarios(options.scenarios ?? [], content.scenarios, settings))
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

  const pipelineSettings: PipelineSettings = {
    tokens: { secret: settings.secret, ttlSeconds: settings.tokenTtlSeconds },
    strictContract: settings.strictContract,
    bodyLimitBytes: settings.bodyLimitBytes,
    now: settings.now,
  }
  const events = createSandboxEvents()
  const { onOperation, sessionLog } = options
  if (onOperation) events.on('operation:applied', ({ data }) => onOperation(data))
  let startingSnapshot: Snapshot | undefined
  const ready = cache.load(settings.scenario, settings.seed).then((snapshot) => {
    startingSnapshot = snapshot
  })
  const starting = () => {
    invariant(startingSnapshot, 'Failed to create a session: the sandbox is not ready')
    return startingSnapshot
  }
  const stages = options.stages ?? []
  // Set once the request handler exists: a log's writes are applied by the pipeline.
  let applyLogged:
    | ((store: Store, session: string, changes: LoggedChange[]) => Promise<Store>)
    | undefined
  const sessions = new SessionRegistry({
    maxSessions: settings.maxSessions,
    async open(session) {
      await ready
      const fresh = createStore(starting())
      if (!sessionLog) return { store: fresh, created: true }
      let changes: LoggedChange[] | undefined
      try {
        changes = await sessionLog.load(session)
      } catch (error) {
        if (error instanceof SandboxError)
          return { store: fresh, created: false, unavailable: error }
        throw error
      }
      if (changes === undefined) return { store: fresh, created: true }
      invariant(applyLogged, 'Failed to load session "%s": the sandbox is not assembled', session)
      return { store: await applyLogged(fresh, session, changes), created: false }
    },
    openNow: sessionLog ? undefined : () => createStore(starting()),
    onRelease(record) {
      journal.forget(record)
      for (const stage of stages) stage.rewind?.(record.id)
      sessionLog?.release?.(record.id)
    },
  })
  const journal = new SessionJournals(
    sessions,
    { perSession: settings.journalLimit, total: settings.journalTotalLimit },
    options.writeJournalHar,
  )
  events.on('request:end', ({ data }) => journal.record(data.entry, data.exchange))
  async function store(session = DEFAULT_SESSION): Promise<Store> {
    const { record } = await sessions.open(session)
    if (record.unavailable) throw record.unavailable
    return record.store
  }
  const parts: SandboxParts = {
    settings,
    scenarios,
    sessions,
    events,
    journal,
    faults: new FaultRegistry(sessions),
    clocks: new SessionClocks(sessions, settings.now),
    stages,
    cache,
    saved: createSavedSnapshots({
      store,
      isScenario: (name) => Object.hasOwn(scenarios, name),
      loadSnapshot: cache.load,
      now: settings.now,
    }),
    ready,
    starting,
    pipelineSettings,
    sessionLog,
  }
  const { faults, clocks } = parts
  const reset = createReset(parts)

  const dropSession = (session: string) => {
    sessions.delete(session)
    sessionLog?.drop(session)
    announce(events, 'session:dropped', { session })
  }
  const core: Omit<Sandbox, 'handle' | 'answers' | 'route'> = {
    ready,
    events,
    journal,
    faults,
    clocks,
    personas: content.personas,
    operations: content.operations,
    scenarios,
    settings,
    openapiDocument: options.openapiDocument,
    stages,
    get sessionCount() {
      return sessions.size
    },
    usage: () => ({
      sessions: sessions.size,
      maxSessions: settings.maxSessions,
      journalEntries: journal.size,
      journalLimit: settings.journalLimit,
      journalTotalLimit: settings.journalTotalLimit,
      faultRules: faults.size,
    }),
    reset,
    snapshots: parts.saved,
    addScenarios,
    async resetAll(resetOptions = {}) {
      for (const session of sessions.ids()) {
        if (session !== DEFAULT_SESSION) dropSession(session)
      }
      for (const stage of stages) stage.rewind?.()
      return reset(resetOptions)
    },
    store,
    dropSession,
    sessionIds: () => sessions.ids(),
    describeSessions: () =>
      [...sessions.records()]
        .filter((record) => record.unavailable === undefined)
        .map(({ id, store: { snapshot } }) => ({
          id,
          scenario: snapshot.scenario,
          seed: snapshot.seed,
        }))
        .reverse(),
  }
  const { handle, route, applyLog } = createRequestHandler({
    parts,
    operations: content.operations,
    personas: content.personas,
    options,
    control: core,
  })
  applyLogged = applyLog
  return Object.assign(core, {
    handle,
    route,
    answers: (method: string, path: string) => route(method, path) !== undefined,
  })
}
