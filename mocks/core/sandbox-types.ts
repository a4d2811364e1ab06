/**
 * @module
 * What a sandbox is given (its content and options, the defaults of these) and what it is
 * (`SandboxCore`), so that its modules and the control API can name it without importing it.
 */
import type { Persona, Scenario } from '../model/content.ts'
import type { Store } from '../model/store.ts'
import type { OperationEvent, ResetResult, SandboxEvents } from './events.ts'
import type { FaultRegistry } from './faults.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import type { JournalHarWriter, RequestJournal } from './journal.ts'
import type { Operation } from './operation.ts'
import type { MatchedOperation, PipelineSettings } from './request-context.ts'
import type { SavedSnapshots } from './saved-snapshots.ts'
import type { ScenarioFiles, ScenarioInputs } from './scenario-files.ts'
import type { SessionClocks } from './sessions.ts'
import type { SandboxStage } from './stage.ts'
import type { StateStore } from './state-store.ts'
import type { AnyOperationDeclaration } from './user-operation.ts'

export type { OperationEvent, ResetResult } from './events.ts'
export type { MatchedOperation } from './request-context.ts'

/** What a sandbox serves, given by the entry modules (the built-in content). */
export interface SandboxContent {
  operations: readonly Operation[]
  /** The fixed people every scenario holds. */
  personas: readonly Persona[]
  /** `SandboxOptions.scenarios` adds to them. */
  scenarios: Readonly<Record<string, Scenario>>
  /** Seed of generated data when the options give none. */
  defaultSeed: number
  scenarioFiles: ScenarioFiles
}

export interface SandboxCoreOptions {
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
  /** Most requests kept in each session's journal. Default 1000. */
  journalLimit?: number
  /** Most requests in all journals; the least recently used sessions' go first. Default 100,000. */
  journalTotalLimit?: number
  /** Largest accepted request body in bytes. Default 100 kB (102,400). */
  bodyLimitBytes?: number
  /**
   * Extra scenarios: files as objects (`defineScenario`, JSON, YAML), files read by
   * `readScenarioFiles`, or built ones; checked now, a `ScenarioError` lists every problem.
   */
  scenarios?: ScenarioInputs
  /**
   * Provides the merged OpenAPI document served at `/__sandbox/openapi.json`, given the sandbox's
   * operations (to mark those of your own as proposed: `proposedDocument`).
   */
  openapiDocument?: (operations: readonly Operation[]) => unknown | Promise<unknown>
  /**
   * Stages plugged in front of the operations, after the control API and the fault rules:
   * the first that answers a request answers it. Recorded answers are one (`replay`).
   */
  stages?: readonly SandboxStage[] | undefined
  /** Writes the journal as HAR (`journal.toHar()`); without it the export answers 404. */
  writeJournalHar?: JournalHarWriter | undefined
  /** Loads the HAR writer on the first `GET /__sandbox/requests.har`, instead (the browser's). */
  loadJournalHar?: (() => Promise<JournalHarWriter>) | undefined
  /**
   * Makes the control API (all of `/__sandbox` but `GET /__sandbox/health`) require
   * `Authorization: Bearer <controlToken>`. Default: open.
   */
  controlToken?: string | undefined
  /**
   * Origins besides a request's own (its `Host`) whose pages may `POST` or `DELETE` under
   * `/__sandbox`: exact or `*` patterns (`https://*.example.com`); a `*` alone allows none.
   * Others get a 403, token or not. Default: the local origins (`http://localhost:*`...).
   */
  controlOrigins?: readonly string[] | undefined
  /** Control rows the runtime answers itself (the server's console): routed here, else 404. */
  controlRoutes?:
    | readonly { method: 'GET' | 'POST' | 'DELETE'; path: string; access: 'public' | 'control' }[]
    | undefined
  /** Told of each answered operation, in its session's order (`operation:applied`). */
  onOperation?: ((event: OperationEvent) => void) | undefined
  /**
   * What outlives the process (the server's `--state-dir`): each write is appended to its
   * session's log before it is applied, a session not in memory is loaded from its log when first
   * used, and the saved snapshots and uploaded scenarios are kept and restored on start.
   */
  store?: StateStore | undefined
  /** How long it runs, when what starts it decides: told by the health check and MCP tools. */
  lifetime?: string | undefined
  /** Operations of your own (`defineOperation`), served after the 13, as they are. */
  operations?: readonly AnyOperationDeclaration[] | undefined
  /** Checks their answers against their response schemas (stderr, journal). Default `true`. */
  checkAnswers?: boolean | undefined
}

/** What the sandbox holds (sessions in memory, all journals, all rules), against its bounds. */
export interface SandboxUsage {
  sessions: number
  maxSessions: number
  journalEntries: number
  journalLimit: number
  journalTotalLimit: number
  faultRules: number
  /** With a store shared by several processes: the sessions it holds, whichever answered them. */
  storeSessions?: number
}

export interface ResetOptions {
  scenario?: string
  /** A snapshot saved with `sandbox.snapshots.save(name)`, instead of a scenario. */
  snapshot?: string
  seed?: number
  /** Default: the shared default session. */
  session?: string
}

/** What a sandbox was created with, every option given a value. */
export function resolveSettings(options: SandboxCoreOptions, defaultSeed: number) {
  return {
    scenario: options.scenario ?? 'default',
    seed: options.seed ?? defaultSeed,
    secret: options.secret ?? 'platform-sandbox-development-secret-change-me',
    tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
    strictContract: options.strictContract ?? false,
    maxSessions: options.maxSessions ?? 5000,
    journalLimit: options.journalLimit ?? 1000,
    journalTotalLimit: options.journalTotalLimit ?? 100_000,
    bodyLimitBytes: options.bodyLimitBytes ?? 100 * 1024,
    now: options.now ?? (() => new Date()),
    lifetime: options.lifetime,
  }
}

export type SandboxSettings = Readonly<ReturnType<typeof resolveSettings>>

/** What a request is answered on, from the settings (on the sandbox's clock). */
export const pipelineSettings = (settings: SandboxSettings): PipelineSettings => ({
  tokens: { secret: settings.secret, ttlSeconds: settings.tokenTtlSeconds },
  strictContract: settings.strictContract,
  bodyLimitBytes: settings.bodyLimitBytes,
  now: settings.now,
})

/**
 * The sandbox the core assembles (`assembleSandbox`): sessions, journal and control API behind
 * the one `handle(request)` every runtime calls. Its functions work taken off it too
 * (`const { handle } = sandbox`). `createSandbox` gives it the built-in content.
 */
export interface SandboxCore {
  /** Resolves when the starting scenario is loaded. `handle` waits for it by itself. */
  readonly ready: Promise<void>
  /** With a store shared by several processes: reads again the snapshots and scenarios it keeps
   * when another process changed them (one round trip when none did). */
  refreshKept(): Promise<void>
  /** Runs `run` on the session's fault rules or clock; with a shared store, noted in its log. */
  changeControl<T>(session: string, run: () => T | Promise<T>): Promise<T>
  /** What the sandbox does, as it does it: see `events.ts`. */
  readonly events: SandboxEvents
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
  readonly openapiDocument:
    | ((operations: readonly Operation[]) => unknown | Promise<unknown>)
    | undefined
  /** The stages plugged in front of the operations, in order. */
  readonly stages: readonly SandboxStage[]
  /** Saved snapshots of session state: save, list, export, delete. */
  readonly snapshots: SavedSnapshots
  /**
   * Answers one request: an operation or a control call. Never throws. `matched` names the
   * operation a caller's router (msw) already matched: only that route is checked.
   */
  handle(request: SandboxRequest, matched?: MatchedOperation): Promise<SandboxResponse>
  /**
   * What `handle` would answer with: the operation of the route (pass it on to `handle`),
   * `control` for a control call, `undefined` for an unknown route.
   */
  route(method: string, path: string): MatchedOperation | 'control' | undefined
  /**
   * Whether `handle` has an answer for this method and path other than "unknown route".
   * Lets a mounted sandbox pass other paths on.
   */
  answers(method: string, path: string): boolean
  /** Puts a session back to the starting scenario and seed, or the ones or the snapshot named. */
  reset(options?: ResetOptions): Promise<ResetResult>
  /**
   * Starts over, as test and story runners do between runs: drops every session but the
   * default one and resets that one to the starting scenario and seed (or the ones given).
   */
  resetAll(options?: Omit<ResetOptions, 'session'>): Promise<ResetResult>
  /** The store of a session, created from the starting scenario if new. */
  store(session?: string): Promise<Store>
  /**
   * Adds scenarios (files or built ones) after start, replacing earlier added ones of the
   * same name. Throws a `ScenarioError` listing every problem; then nothing is added.
   */
  addScenarios(inputs: ScenarioInputs): Scenario[]
  /**
   * `POST /__sandbox/scenarios`: adds a scenario file as {@link addScenarios} does, kept by the
   * store first (when the sandbox has one) so that the next start has it too.
   */
  uploadScenario(file: unknown): Promise<Scenario>
  /** Drops a session and its state (and its log, with a state directory). */
  dropSession(session: string): void
  /** Ids of the sessions in memory, least recently used first. */
  sessionIds(): string[]
  /**
   * The sessions in memory, most recently used first, with the scenario and seed each started
   * from; read without marking any of them used (sessions whose log cannot be read are left out).
   * With a store shared by several processes: every session it holds instead, and `caller`.
   */
  describeSessions(caller?: string): Promise<{ id: string; scenario: string; seed: number }[]>
  readonly sessionCount: number
  /** What all sessions hold now, against their bounds (`GET /__sandbox/health` shows it). */
  usage(): Promise<SandboxUsage>
}
