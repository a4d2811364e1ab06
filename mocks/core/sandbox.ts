/**
 * @module
 * The sandbox: the operation table, the sessions and their stores, the journal
 * and the control API behind one `handle(request)` that every runtime calls.
 */
import { invariant } from 'outvariant'
import { type Persona, personas } from '../../fixtures/personas.ts'
import {
  scenarios as builtInScenarios,
  DEFAULT_SEED,
  type Scenario,
} from '../../fixtures/scenarios.ts'
import { createFactories, type Factories } from '../factories/create-factories.ts'
import { createSnapshot, type Snapshot, type Store } from '../model/store.ts'
import { operations } from '../operations/table.ts'
import {
  createReplay,
  noRecordingResponse,
  type Replay,
  type ReplayOptions,
} from '../recordings/replay.ts'
import { ScenarioError } from '../scenarios/compile-scenarios.ts'
import { resolveScenarios, type ScenarioInputs } from '../scenarios/scenario-inputs.ts'
import { SessionClocks } from './clock.ts'
import { handleControl } from './control.ts'
import { isControlPath } from './control-routes.ts'
import { badRequest, SandboxError } from './errors.ts'
import { FaultRegistry, markFault } from './faults.ts'
import {
  jsonResponse,
  parseCookies,
  type SandboxRequest,
  type SandboxResponse,
  splitUrl,
} from './http.ts'
import { type JournalEntry, RequestJournal } from './journal.ts'
import { otherMethodResponse, withoutBody } from './method-rules.ts'
import type { Operation } from './operation.ts'
import {
  errorResponse,
  internalErrorResponse,
  type PipelineSettings,
  runPipeline,
} from './pipeline.ts'
import { redactQuery } from './redact.ts'
import { runFaultStage } from './request-faults.ts'
import { requestPersona } from './request-persona.ts'
import { createRouter } from './router.ts'
import { createSavedSnapshots, type SavedSnapshots } from './saved-snapshots.ts'
import { markSessionCreated } from './session-created.ts'
import { DEFAULT_SESSION, resolveSession } from './session-id.ts'
import { SessionRegistry } from './sessions.ts'

export { CONTROL_PREFIX } from './control-routes.ts'
export { SESSION_COOKIE, SESSION_HEADER } from './session-id.ts'

export interface SandboxOptions {
  /** Scenario every new session starts from. Default `default`. */
  scenario?: string
  /** Seed of generated data. Default `20260601`. */
  seed?: number
  /** Secret the access tokens are signed with. */
  secret?: string
  /** Access token lifetime in seconds. Default 900 (15 minutes). */
  tokenTtlSeconds?: number
  /** Make a missing `dryRun` a 400, as the published contract requires it. Default `false`. */
  strictContract?: boolean
  /** The clock of tokens and writes. Default: real time. */
  now?: () => Date
  /** Most sessions kept at once; the least recently used go first. Default 5000. */
  maxSessions?: number
  /** Most requests kept in the journal. Default 1000. */
  journalLimit?: number
  /** Largest accepted request body in bytes. Default 100 kB (102,400). */
  bodyLimitBytes?: number
  /**
   * Extra scenarios: scenario files as objects (`defineScenario`, imported JSON or YAML),
   * files read by `readScenarioFiles`, or built scenarios (`{ name, description, build }`).
   * Files are validated when the sandbox is created; a problem throws a `ScenarioError`
   * listing every one.
   */
  scenarios?: ScenarioInputs
  /** Provides the merged OpenAPI document served at `/__sandbox/openapi.json`. */
  openapiDocument?: () => unknown | Promise<unknown>
  /** Recorded answers (HAR or examples) layered in front of the operations. */
  replay?: ReplayOptions | Replay
  /**
   * Makes the control API (all of `/__sandbox` but `GET /__sandbox/health`) require
   * `Authorization: Bearer <controlToken>`. Default: open.
   */
  controlToken?: string | undefined
  /**
   * Called after each request to an operation is answered, in the order the session ran
   * them (inside its queue): what a write-ahead log needs. Must not throw.
   */
  onOperation?: ((event: OperationEvent) => void) | undefined
}

/** One answered request to an operation, as `onOperation` sees it. */
export interface OperationEvent {
  session: string
  request: SandboxRequest
  operationId: string
  status: number
  /** `true`/`false` for operations with `dryRun`, `null` for the others. */
  dryRun: boolean | null
  /** Whether this request created its session from the scenario. */
  sessionCreated: boolean
  /** The instant the operation ran at: its clock for tokens and timestamps. */
  time: Date
}

export interface ResetOptions {
  scenario?: string
  /** A snapshot saved with `sandbox.snapshots.save(name)`, instead of a scenario. */
  snapshot?: string
  seed?: number
  /** The session to reset. Default: the shared default session. */
  session?: string
}

export interface ResetResult {
  session: string
  scenario: string
  seed: number
  /** The saved snapshot the session was reset to, if any. */
  snapshot?: string
}

export interface Sandbox {
  /** Resolves when the starting scenario is loaded. `handle` waits for it by itself. */
  readonly ready: Promise<void>
  /** Answers one request: an operation of the reference or a control call. Never throws. */
  handle(request: SandboxRequest): Promise<SandboxResponse>
  /** Puts a session back to a scenario's initial state. */
  reset(options?: ResetOptions): Promise<ResetResult>
  /**
   * Starts over: drops every session but the default one and puts the default session
   * back to the starting scenario and seed (or the ones given). What test and story
   * runners call between runs.
   */
  resetAll(options?: Omit<ResetOptions, 'session'>): Promise<ResetResult>
  /** The store of a session, created from the starting scenario if new. */
  store(session?: string): Promise<Store>
  /**
   * Whether `handle` has an answer for this method and path other than "unknown route":
   * an operation of the reference or a control call. Lets a mounted sandbox pass other
   * paths on.
   */
  answers(method: string, path: string): boolean
  /**
   * One factory per collection: `factories.bookings({ hostId: 'usr_host' }, { session })`
   * creates a valid record with seeded defaults in the session and returns it.
   */
  readonly factories: Factories
  /** Saved snapshots of session state: save, list, export, delete. */
  readonly snapshots: SavedSnapshots
  /**
   * Adds scenarios (files or built ones) after start, replacing earlier added ones of the
   * same name. Throws a `ScenarioError` listing every problem; then nothing is added.
   */
  addScenarios(inputs: ScenarioInputs): Scenario[]
  /** Drops a session and its state. */
  dropSession(session: string): void
  /** Ids of the sessions that currently hold state. */
  sessionIds(): string[]
  readonly journal: RequestJournal
  /** Fault rules of each session (`/__sandbox/faults`). */
  readonly faults: FaultRegistry
  /** Clock of each session (`/__sandbox/clock`). */
  readonly clocks: SessionClocks
  readonly personas: readonly Persona[]
  readonly operations: readonly Operation[]
  readonly scenarios: Readonly<Record<string, Scenario>>
  readonly settings: Readonly<
    Required<
      Omit<
        SandboxOptions,
        'scenarios' | 'openapiDocument' | 'now' | 'replay' | 'controlToken' | 'onOperation'
      >
    >
  > & {
    now(): Date
  }
  readonly sessionCount: number
  /** Where `/__sandbox/openapi.json` comes from, if this runtime has it. */
  readonly openapiDocument: (() => unknown | Promise<unknown>) | undefined
  /** The recorded answers layered in front of the operations, if any. */
  readonly replay: Replay | undefined
}

const SNAPSHOT_CACHE_SIZE = 4

const DEV_SECRET = 'platform-sandbox-development-secret-change-me'

/**
 * Creates a sandbox.
 *
 * @example
 * const sandbox = createSandbox({ scenario: 'default', seed: 7 })
 * const response = await sandbox.handle({ method: 'GET', url: '/__sandbox/health', headers: {} })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const settings = {
    scenario: options.scenario ?? 'default',
    seed: options.seed ?? DEFAULT_SEED,
    secret: options.secret ?? DEV_SECRET,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
    strictContract: options.strictContract ?? false,
    maxSessions: options.maxSessions ?? 5000,
    journalLimit: options.journalLimit ?? 1000,
    bodyLimitBytes: options.bodyLimitBytes ?? 100 * 1024,
    now: options.now ?? (() => new Date()),
  }
  const scenarios: Record<string, Scenario> = { ...builtInScenarios }
  const added = new Set<string>()
  const addScenarios = (inputs: ScenarioInputs): Scenario[] => {
    const resolved = resolveScenarios(inputs, scenarios, {
      seed: settings.seed,
      replaceable: (name) => added.has(name),
    })
    for (const [name, scenario] of Object.entries(resolved)) {
      scenarios[name] = scenario
      added.add(name)
      for (const key of snapshots.keys()) if (key.startsWith(`${name}@`)) snapshots.delete(key)
    }
    return Object.values(resolved)
  }
  const snapshots = new Map<string, Promise<Snapshot>>()
  Object.assign(scenarios, resolveScenarios(options.scenarios ?? [], builtInScenarios, settings))
  invariant(
    settings.scenario in scenarios,
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
  const journal = new RequestJournal(settings.journalLimit)
  const replay =
    options.replay === undefined || 'answer' in options.replay
      ? options.replay
      : createReplay(options.replay)
  const faults = new FaultRegistry()
  const clocks = new SessionClocks(settings.now)
  const personaKeys = new Map(personas.map((persona) => [persona.publicId, persona.key]))
  /** Pipeline settings on the session's clock, when it was moved. */
  const settingsOf = (session: string): PipelineSettings =>
    clocks.has(session) ? { ...pipelineSettings, now: () => clocks.now(session) } : pipelineSettings
  const sessions = new SessionRegistry(settings.maxSessions)
  const knownMethods = [...new Set(operations.map((operation) => operation.method))]
  const match = createRouter(
    operations.map((operation) => ({
      method: operation.method,
      path: operation.path,
      value: operation,
    })),
  )

  function loadSnapshot(name: string, seed: number): Promise<Snapshot> {
    const key = `${name}@${seed}`
    let snapshot = snapshots.get(key)
    if (!snapshot) {
      const scenario = scenarios[name]
      invariant(scenario, 'Failed to load scenario "%s": unknown', name)
      snapshot = Promise.resolve().then(() => createSnapshot(name, seed, scenario.build(seed)))
      snapshots.set(key, snapshot)
      snapshot.catch(() => snapshots.delete(key))
      const startingKey = `${settings.scenario}@${settings.seed}`
      for (const cached of snapshots.keys()) {
        if (snapshots.size <= SNAPSHOT_CACHE_SIZE) break
        if (cached !== startingKey && cached !== key) snapshots.delete(cached)
      }
    }
    return snapshot
  }

  let startingSnapshot: Snapshot | undefined
  const ready = loadSnapshot(settings.scenario, settings.seed).then((snapshot) => {
    startingSnapshot = snapshot
  })
  const starting = () => {
    invariant(startingSnapshot, 'Failed to create a session: the sandbox is not ready')
    return startingSnapshot
  }

  const saved = createSavedSnapshots({
    store: (session) => store(session),
    loadSnapshot: (name, seed) => loadSnapshot(name, seed),
    now: settings.now,
  })

  async function reset(resetOptions: ResetOptions = {}): Promise<ResetResult> {
    const session = resetOptions.session ?? DEFAULT_SESSION
    const { snapshot: named, scenario: asked, seed: askedSeed } = resetOptions
    // A session started from a saved snapshot goes back to it when nothing else is asked.
    const savedAs = sessions.peek(session)?.snapshot.savedAs
    if (named === undefined && asked === undefined && askedSeed === undefined && savedAs) {
      if (saved.list().some((info) => info.name === savedAs)) {
        return reset({ session, snapshot: savedAs })
      }
    }
    if (resetOptions.snapshot !== undefined) {
      if (resetOptions.scenario !== undefined || resetOptions.seed !== undefined) {
        throw badRequest('Validation failed', ['give either snapshot, or scenario and seed'])
      }
      const snapshot = saved.get(resetOptions.snapshot)
      await ready
      sessions.replace(session, snapshot)
      journal.clear(session)
      return {
        session,
        scenario: snapshot.scenario,
        seed: snapshot.seed,
        snapshot: resetOptions.snapshot,
      }
    }
    const current = sessions.peek(session)?.snapshot
    const scenario = resetOptions.scenario ?? current?.scenario ?? settings.scenario
    const seed = resetOptions.seed ?? current?.seed ?? settings.seed
    if (!(scenario in scenarios)) {
      throw badRequest('Unknown scenario', [
        `scenario must be one of: ${Object.keys(scenarios).join(', ')}`,
      ])
    }
    await ready
    let snapshot: Snapshot
    try {
      snapshot = await loadSnapshot(scenario, seed)
    } catch (error) {
      if (error instanceof ScenarioError)
        throw badRequest(error.message.split(':\n')[0]!, [...error.problems])
      throw error
    }
    sessions.replace(session, snapshot)
    journal.clear(session)
    faults.clear(session)
    clocks.reset(session)
    replay?.rewind(session)
    return { session, scenario, seed }
  }

  async function store(session = DEFAULT_SESSION): Promise<Store> {
    await ready
    return sessions.acquire(session, starting).store
  }

  const sandbox: Sandbox = {
    ready,
    journal,
    faults,
    clocks,
    personas,
    operations,
    scenarios,
    settings,
    openapiDocument: options.openapiDocument,
    replay,
    get sessionCount() {
      return sessions.size
    },
    reset,
    snapshots: saved,
    addScenarios,
    factories: createFactories({ store, seed: settings.seed, now: settings.now }),
    async resetAll(resetOptions = {}) {
      for (const session of sessions.ids()) {
        if (session !== DEFAULT_SESSION) sandbox.dropSession(session)
      }
      replay?.rewind()
      return reset({ scenario: settings.scenario, seed: settings.seed, ...resetOptions })
    },
    store,
    answers: (method, path) =>
      isControlPath(path) || match(method.toUpperCase(), path) !== undefined,
    dropSession: (session) => {
      sessions.delete(session)
      faults.clear(session)
      clocks.reset(session)
    },
    sessionIds: () => sessions.ids(),
    async handle(request) {
      const started = performance.now()
      let time = ''
      const { path, query } = splitUrl(request.url)
      const requested = request.method.toUpperCase()
      // HEAD is answered like GET; the wrapper below drops the body.
      const method = requested === 'HEAD' ? 'GET' : requested
      let session = DEFAULT_SESSION
      let operationId: string | null = null
      let fault: string | undefined
      const record = (
        response: SandboxResponse,
        dryRun: boolean | null,
        persona?: string | null,
        sessionCreated = false,
      ) => {
        const status = response.status
        const entry: JournalEntry = {
          method: requested,
          path,
          query: redactQuery(query),
          status,
          dryRun,
          session,
          time,
          durationMs: performance.now() - started,
          operationId,
        }
        if (persona) entry.persona = persona
        if (fault !== undefined) entry.fault = fault
        if (sessionCreated) entry.sessionCreated = true
        journal.record(entry, { request, response })
      }
      try {
        const cookies = parseCookies(request.headers.cookie)
        session = resolveSession(request.headers)
        const sessionSettings = settingsOf(session)
        time = sessionSettings.now().toISOString()
        if (isControlPath(path)) {
          const existed = sessions.peek(session) !== undefined
          const response = await handleControl(sandbox, {
            method,
            path,
            query,
            request,
            session,
            controlToken: options.controlToken,
          })
          const created = !existed && sessions.peek(session) !== undefined
          if (created) record(response, null, undefined, true)
          return markSessionCreated(response, created)
        }
        const found = match(method, path)
        // Recorded answers come after the control API and fault rules, before the model.
        const replayed = () =>
          replay && answerFromReplay(replay, method, path, query, request, session)
        if (!found) {
          const recorded = replayed()
          if (recorded) {
            record(recorded, null)
            return recorded
          }
          const allowed = knownMethods.filter((known) => match(known, path) !== undefined)
          const response =
            allowed.length > 0
              ? otherMethodResponse(method, path, allowed)
              : jsonResponse(404, { message: `Cannot ${method} ${path}`, code: 'NOT_FOUND' })
          record(response, null)
          return response
        }
        operationId = found.value.id
        const prefer = request.headers.prefer
        if (prefer !== undefined || faults.has(session)) {
          const decision = await runFaultStage({
            faults,
            session,
            operation: found.value,
            path,
            prefer,
            persona: () =>
              requestPersona(
                request,
                cookies,
                personas,
                pipelineSettings.tokens,
                sessionSettings.now(),
              ),
          })
          fault = decision?.mark
          if (decision?.answer) {
            const answer = markFault(decision.answer, decision.mark)
            record(answer, null)
            return answer
          }
        }
        const recorded = replayed()
        if (recorded) {
          record(recorded, null)
          return recorded
        }
        await ready
        const created = sessions.peek(session) === undefined
        const state = sessions.acquire(session, starting)
        const result = await sessions.run(state, () => {
          // With a write log, one instant per request, so a replay at that instant is exact.
          const at = options.onOperation ? sessionSettings.now() : undefined
          return runPipeline(
            found.value,
            {
              params: found.params,
              query,
              headers: request.headers,
              cookies,
              body: request.body,
              bodyTooLarge: request.bodyTooLarge,
            },
            state.store,
            at ? { ...sessionSettings, now: () => at } : sessionSettings,
          ).then((answered) => {
            // Still inside the session's queue, so a write log sees the order writes ran in.
            if (at) {
              options.onOperation?.({
                session,
                request,
                operationId: found.value.id,
                status: answered.response.status,
                dryRun: answered.dryRun,
                sessionCreated: created,
                time: at,
              })
            }
            return answered
          })
        })
        const caller = result.callerId
        const marked = markSessionCreated(result.response, created)
        const answer = fault === undefined ? marked : markFault(marked, fault)
        record(answer, result.dryRun, caller && (personaKeys.get(caller) ?? caller), created)
        return answer
      } catch (error) {
        if (error instanceof SandboxError) {
          const answer = errorResponse(error)
          if (operationId !== null) record(answer, null)
          return answer
        }
        console.error('[sandbox] request failed:', error)
        return internalErrorResponse()
      }
    },
  }
  const handleAnyMethod = sandbox.handle
  sandbox.handle = async (request) => {
    const response = await handleAnyMethod(request)
    return request.method.toUpperCase() === 'HEAD' ? withoutBody(response) : response
  }
  return sandbox
}

function answerFromReplay(
  replay: Replay,
  method: string,
  path: string,
  query: URLSearchParams,
  request: SandboxRequest,
  session: string,
): SandboxResponse | undefined {
  const answer = replay.answer({ method, path, query, body: request.body, session })
  if (answer) return answer
  return replay.only ? noRecordingResponse(method, path) : undefined
}
