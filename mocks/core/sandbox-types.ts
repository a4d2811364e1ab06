/**
 * @module
 * The shapes of a sandbox: what it is given (its content and options) and what it
 * offers every runtime. Types only, so the modules around the core can name them
 * without importing the core.
 */
import type { Persona, Scenario } from '../model/content.ts'
import type { Store } from '../model/store.ts'
import type { ScenarioInputs } from '../scenarios/scenario-inputs.ts'
import type { SessionClocks } from './clock.ts'
import type { OperationEvent, ResetResult, SandboxEvents } from './events.ts'
import type { FaultRegistry } from './faults.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import type { JournalHarWriter, RequestJournal } from './journal.ts'
import type { Operation } from './operation.ts'
import type { SavedSnapshots } from './saved-snapshots.ts'
import type { SessionLog } from './session-log.ts'
import type { SandboxStage } from './stage.ts'

export type { OperationEvent, ResetResult } from './events.ts'

/**
 * What a sandbox serves: given by the entry modules (`platform-sandbox`, `/node`,
 * `/browser`, ...), which supply the built-in operations, personas and scenarios.
 */
export interface SandboxContent {
  /** The operations of the reference, each with its route, schemas and `apply`. */
  operations: readonly Operation[]
  /** The fixed people every scenario holds. */
  personas: readonly Persona[]
  /** The scenarios every sandbox knows; `SandboxOptions.scenarios` adds to them. */
  scenarios: Readonly<Record<string, Scenario>>
  /** Seed of generated data when the options give none. */
  defaultSeed: number
}

/** The operation whose route a caller (an msw handler) has already matched. */
export interface MatchedOperation {
  operation: Operation
}

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
  /** Most requests kept in each session's journal. Default 1000. */
  journalLimit?: number
  /**
   * Most requests kept in all sessions' journals together. Past it, the oldest entries of
   * the least recently used sessions go first. Default 100,000.
   */
  journalTotalLimit?: number
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
  /**
   * Stages plugged in front of the operations, after the control API and the fault rules:
   * the first that answers a request answers it. Recorded answers are one (`replay`).
   */
  stages?: readonly SandboxStage[] | undefined
  /** Writes the journal as HAR (`journal.toHar()`); without it the export answers 404. */
  writeJournalHar?: JournalHarWriter | undefined
  /**
   * Makes the control API (all of `/__sandbox` but `GET /__sandbox/health`) require
   * `Authorization: Bearer <controlToken>`. Default: open.
   */
  controlToken?: string | undefined
  /**
   * Origins besides a request's own whose pages may change state through the control API:
   * exact origins or `*` patterns (`https://*.example.com`, `http://localhost:*`); a `*`
   * alone allows none. A `POST` or `DELETE` under `/__sandbox` from any other `Origin`
   * (`null` included) is refused with a 403 before anything runs, whatever token it carries;
   * requests without `Origin` (curl, Node) and reads are not concerned. The page's own origin
   * is the one whose host and port are the request's `Host`. Default: the local development
   * origins (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`).
   */
  controlOrigins?: readonly string[] | undefined
  /**
   * Called after each request to an operation is answered, in the order the session ran
   * them (inside its queue): what a write-ahead log needs. Must not throw. The same as
   * listening to `sandbox.events` for `operation:applied`.
   */
  onOperation?: ((event: OperationEvent) => void) | undefined
  /**
   * Durable sessions (the server's `--state-dir`): each write is appended before it is
   * applied, and a session not in memory is loaded from its log when first used.
   */
  sessionLog?: SessionLog | undefined
}

/** What the sandbox holds, against its bounds. */
export interface SandboxUsage {
  /** Sessions in memory. */
  sessions: number
  maxSessions: number
  /** Journal entries of all sessions together. */
  journalEntries: number
  /** Most entries of one session's journal. */
  journalLimit: number
  /** Most entries of all journals together. */
  journalTotalLimit: number
  /** Fault rules of all sessions together. */
  faultRules: number
}

export interface ResetOptions {
  scenario?: string
  /** A snapshot saved with `sandbox.snapshots.save(name)`, instead of a scenario. */
  snapshot?: string
  seed?: number
  /** The session to reset. Default: the shared default session. */
  session?: string
}

export interface Sandbox {
  /** Resolves when the starting scenario is loaded. `handle` waits for it by itself. */
  readonly ready: Promise<void>
  /**
   * Answers one request: an operation of the reference or a control call. Never throws.
   * `matched` names the operation a caller's router (msw) already matched, so the
   * sandbox checks that one route instead of searching them all.
   */
  handle(request: SandboxRequest, matched?: MatchedOperation): Promise<SandboxResponse>
  /**
   * Puts a session back to a starting state: the scenario and seed the sandbox was created
   * with, unless the options name another scenario, seed or a saved snapshot.
   */
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
   * What `handle` would answer this method and path with: the operation whose route it is
   * (pass it on to `handle`, so the request is matched once), `control` for a control call,
   * `undefined` for an unknown route.
   */
  route(method: string, path: string): MatchedOperation | 'control' | undefined
  /** Saved snapshots of session state: save, list, export, delete. */
  readonly snapshots: SavedSnapshots
  /**
   * Adds scenarios (files or built ones) after start, replacing earlier added ones of the
   * same name. Throws a `ScenarioError` listing every problem; then nothing is added.
   */
  addScenarios(inputs: ScenarioInputs): Scenario[]
  /** Drops a session and its state (and its log, with a state directory). */
  dropSession(session: string): void
  /** Ids of the sessions in memory, least recently used first. */
  sessionIds(): string[]
  /**
   * The sessions in memory, most recently used first, with the scenario and seed each
   * started from; read without marking any of them used (sessions whose log cannot be
   * read are left out).
   */
  describeSessions(): { id: string; scenario: string; seed: number }[]
  /**
   * What the sandbox does, as it does it: `request:end`, `operation:applied`,
   * `session:reset`, `session:dropped` (see `events.ts`).
   */
  readonly events: SandboxEvents
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
        | 'scenarios'
        | 'openapiDocument'
        | 'now'
        | 'stages'
        | 'writeJournalHar'
        | 'controlToken'
        | 'controlOrigins'
        | 'onOperation'
        | 'sessionLog'
      >
    >
  > & {
    now(): Date
  }
  readonly sessionCount: number
  /** What all sessions hold now, against their bounds (`GET /__sandbox/health` shows it). */
  usage(): SandboxUsage
  /** Where `/__sandbox/openapi.json` comes from, if this runtime has it. */
  readonly openapiDocument: (() => unknown | Promise<unknown>) | undefined
  /** The stages plugged in front of the operations, in order. */
  readonly stages: readonly SandboxStage[]
}
