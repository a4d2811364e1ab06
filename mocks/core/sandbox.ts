/**
 * @module
 * The sandbox: sessions, journal and control API behind the one `handle(request)` every
 * runtime calls, serving the content (operations, personas, scenarios) it is given.
 */
import { invariant } from 'outvariant'
import type { Persona, Scenario } from '../model/content.ts'
import { createStore, type Snapshot, type Store } from '../model/store.ts'
import { SandboxError } from './errors.ts'
import { announce, createSandboxEvents, type ResetResult, type SandboxEvents } from './events.ts'
import { FaultRegistry } from './faults.ts'
import { createRequestHandler } from './handle-request.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import { type RequestJournal, SessionJournals } from './journal.ts'
import type { Operation } from './operation.ts'
import { createReset } from './reset-session.ts'
import {
  type ControlContext,
  type MatchedOperation,
  type ResetOptions,
  type SandboxContent,
  type SandboxOptions,
  type SandboxParts,
  type SandboxSettings,
  type SandboxUsage,
  settingsOf,
} from './sandbox-types.ts'
import { createSnapshotCache, SavedSnapshots } from './saved-snapshots.ts'
import {
  checkAddedScenarios,
  type ScenarioFile,
  type ScenarioFiles,
  type ScenarioInputs,
} from './scenario-files.ts'
import { DEFAULT_SESSION } from './session-id.ts'
import { SessionClocks, SessionRegistry } from './sessions.ts'
import type { SandboxStage } from './stage.ts'
import { type LoggedChange, restoreStore, type StateStore } from './state-store.ts'

export type { SandboxOptions } from './sandbox-types.ts'

/**
 * A sandbox serving the given content. The entries call `createSandbox(options)`
 * (`mocks/sandbox.ts`), which gives it the built-in content. Its functions are arrow
 * functions, so that they still work taken off the sandbox (`const { handle } = sandbox`).
 *
 * @example
 * const sandbox = new Sandbox({ operations, personas, scenarios, defaultSeed: 1, scenarioFiles })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export class Sandbox implements ControlContext {
  /** Resolves when the starting scenario is loaded. `handle` waits for it by itself. */
  readonly ready: Promise<void>
  /** What the sandbox does, as it does it: see `events.ts`. */
  readonly events: SandboxEvents = createSandboxEvents()
  readonly journal: RequestJournal
  /** Fault rules of each session (`/__sandbox/faults`). */
  readonly faults: FaultRegistry
  /** Clock of each session (`/__sandbox/clock`). */
  readonly clocks: SessionClocks
  readonly personas: readonly Persona[]
  readonly operations: readonly Operation[]
  readonly scenarios: Readonly<Record<string, Scenario>>
  readonly settings: SandboxSettings
  /** Where `/__sandbox/openapi.json` comes from, if this runtime has it. */
  readonly openapiDocument: (() => unknown | Promise<unknown>) | undefined
  /** The stages plugged in front of the operations, in order. */
  readonly stages: readonly SandboxStage[]
  /** Saved snapshots of session state: save, list, export, delete. */
  readonly snapshots: SavedSnapshots
  readonly #parts: SandboxParts
  readonly #files: ScenarioFiles
  readonly #added = new Set<string>()
  readonly #store: StateStore | undefined
  readonly #reset: (options?: ResetOptions) => Promise<ResetResult>
  readonly #requests: ReturnType<typeof createRequestHandler>

  constructor(content: SandboxContent, options: SandboxOptions = {}) {
    const settings = settingsOf(options, content.defaultSeed)
    this.#files = content.scenarioFiles
    this.settings = settings
    this.personas = content.personas
    this.operations = content.operations
    this.openapiDocument = options.openapiDocument
    const scenarios: Record<string, Scenario> = Object.assign(
      Object.create(null),
      content.scenarios,
      content.scenarioFiles.resolve(options.scenarios ?? [], content.scenarios, settings),
    )
    this.scenarios = scenarios
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
    const { onOperation, store } = options
    const sessionLog = store?.sessions
    this.#store = store
    if (onOperation) this.events.on('operation:applied', ({ data }) => onOperation(data))
    const cache = createSnapshotCache(scenarios, settings)
    let startingSnapshot: Snapshot | undefined
    // With a store, the uploaded scenarios and saved snapshots it keeps come back first.
    const add = (files: unknown[]) => this.#add(this.#resolve(files as ScenarioFile[]))
    this.ready = cache.load(settings.scenario, settings.seed).then((snapshot) => {
      startingSnapshot = snapshot
      return store && restoreStore(store, add, this.snapshots.restore)
    })
    const starting = () => {
      invariant(startingSnapshot, 'Failed to create a session: the sandbox is not ready')
      return startingSnapshot
    }
    const stages = options.stages ?? []
    this.stages = stages
    // Set once the request handler exists: a log's writes are applied by the pipeline.
    let applyLogged: ReturnType<typeof createRequestHandler>['applyLog'] | undefined
    const sessions = new SessionRegistry({
      maxSessions: settings.maxSessions,
      open: async (session) => {
        await this.ready
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
      onRelease: (record) => {
        journals.forget(record)
        for (const stage of stages) stage.rewind?.(record.id)
        sessionLog?.touch(record.id)
      },
    })
    const journals = new SessionJournals(
      sessions,
      { perSession: settings.journalLimit, total: settings.journalTotalLimit },
      options.writeJournalHar,
    )
    this.journal = journals
    this.events.on('request:end', ({ data }) => journals.record(data.entry, data.exchange))
    this.faults = new FaultRegistry(sessions)
    this.clocks = new SessionClocks(sessions, settings.now)
    this.snapshots = new SavedSnapshots({
      store: (session) => this.store(session),
      isScenario: (name) => Object.hasOwn(scenarios, name),
      loadSnapshot: cache.load,
      now: settings.now,
      files: content.scenarioFiles,
      kept: store?.snapshots,
    })
    const parts: SandboxParts = {
      sandbox: this,
      sessions,
      journal: journals,
      cache,
      starting,
      pipelineSettings: {
        tokens: { secret: settings.secret, ttlSeconds: settings.tokenTtlSeconds },
        strictContract: settings.strictContract,
        bodyLimitBytes: settings.bodyLimitBytes,
        now: settings.now,
      },
      sessionLog,
    }
    this.#parts = parts
    this.#reset = createReset(parts)
    this.#requests = createRequestHandler(parts, options)
    applyLogged = this.#requests.applyLog
  }

  /**
   * Answers one request: an operation or a control call. Never throws. `matched` names the
   * operation a caller's router (msw) already matched: only that route is checked.
   */
  handle = (request: SandboxRequest, matched?: MatchedOperation): Promise<SandboxResponse> =>
    this.#requests.handle(request, matched)

  /**
   * What `handle` would answer with: the operation of the route (pass it on to `handle`),
   * `control` for a control call, `undefined` for an unknown route.
   */
  route = (method: string, path: string): MatchedOperation | 'control' | undefined =>
    this.#requests.route(method, path)

  /** Whether `handle` answers this method and path (a mounted sandbox passes others on). */
  answers = (method: string, path: string): boolean => this.route(method, path) !== undefined

  /** Puts a session back to the starting scenario and seed, or the ones or the snapshot named. */
  reset = (options?: ResetOptions): Promise<ResetResult> => this.#reset(options)

  /**
   * Starts over, as test and story runners do between runs: drops every session but the
   * default one and resets that one to the starting scenario and seed (or the ones given).
   */
  resetAll = (options: Omit<ResetOptions, 'session'> = {}): Promise<ResetResult> => {
    for (const session of this.#parts.sessions.ids()) {
      if (session !== DEFAULT_SESSION) this.dropSession(session)
    }
    for (const stage of this.stages) stage.rewind?.()
    return this.#reset(options)
  }

  /** The store of a session, created from the starting scenario if new. */
  store = async (session = DEFAULT_SESSION): Promise<Store> => {
    const { record } = await this.#parts.sessions.open(session)
    if (record.unavailable) throw record.unavailable
    return record.store
  }

  /**
   * Adds scenarios (files or built ones) after start, replacing earlier added ones of the
   * same name. Throws a `ScenarioError` listing every problem; then nothing is added.
   */
  addScenarios = (inputs: ScenarioInputs): Scenario[] => this.#add(this.#resolve(inputs))

  /**
   * `POST /__sandbox/scenarios`: adds a scenario file as {@link addScenarios} does, kept by the
   * store first (when the sandbox has one) so that the next start has it too.
   */
  uploadScenario = async (file: unknown): Promise<Scenario> => {
    const resolved = this.#resolve([file as ScenarioFile])
    const [name] = Object.keys(resolved)
    await this.#store?.scenarios.save(name!, file)
    return this.#add(resolved)[0]!
  }

  #resolve(inputs: ScenarioInputs): Record<string, Scenario> {
    const resolved = this.#files.resolve(inputs, this.scenarios, {
      seed: this.settings.seed,
      replaceable: (name) => this.#added.has(name),
    })
    checkAddedScenarios(this.#added, resolved)
    return resolved
  }

  #add(resolved: Record<string, Scenario>): Scenario[] {
    for (const [name, scenario] of Object.entries(resolved)) {
      ;(this.scenarios as Record<string, Scenario>)[name] = scenario
      this.#added.add(name)
      this.#parts.cache.forget(name)
    }
    return Object.values(resolved)
  }

  /** Drops a session and its state (and its log, with a state directory). */
  dropSession = (session: string): void => {
    // The log first: a drop its log refuses leaves the session as it was.
    this.#parts.sessionLog?.drop(session)
    this.#parts.sessions.delete(session)
    announce(this.events, 'session:dropped', { session })
  }

  /** Ids of the sessions in memory, least recently used first. */
  sessionIds = (): string[] => this.#parts.sessions.ids()

  /**
   * The sessions in memory, most recently used first, with the scenario and seed each started
   * from; read without marking any used (sessions whose log cannot be read are left out).
   */
  describeSessions = (): ReturnType<ControlContext['describeSessions']> =>
    [...this.#parts.sessions.records()]
      .filter((record) => record.unavailable === undefined)
      .map(({ id, store: { snapshot } }) => ({
        id,
        scenario: snapshot.scenario,
        seed: snapshot.seed,
      }))
      .reverse()

  get sessionCount(): number {
    return this.#parts.sessions.size
  }

  /** What all sessions hold now, against their bounds (`GET /__sandbox/health` shows it). */
  usage = (): SandboxUsage => {
    const { maxSessions, journalLimit, journalTotalLimit } = this.settings
    return {
      sessions: this.#parts.sessions.size,
      maxSessions,
      journalEntries: this.#parts.journal.size,
      journalLimit,
      journalTotalLimit,
      faultRules: this.faults.size,
    }
  }
}
