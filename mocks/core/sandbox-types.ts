/**
 * @module
 * What a sandbox is given (its content and options, the defaults of these), the shapes it answers
 * with and the parts its modules share, so the modules around the core can name them without it.
 */
import type { Persona, Scenario } from '../model/content.ts'
import type { Snapshot, Store } from '../model/store.ts'
import type { OperationEvent, ResetResult, SandboxEvents } from './events.ts'
import type { FaultRegistry } from './faults.ts'
import type { JournalHarWriter, RequestJournal, SessionJournals } from './journal.ts'
import type { Operation } from './operation.ts'
import type { PipelineSettings } from './pipeline.ts'
import type { SavedSnapshots, SnapshotCache } from './saved-snapshots.ts'
import type { ScenarioFiles, ScenarioInputs } from './scenario-files.ts'
import type { SessionClocks, SessionRegistry } from './sessions.ts'
import type { SandboxStage } from './stage.ts'
import type { SessionLog, StateStore } from './state-store.ts'

export type { OperationEvent, ResetResult } from './events.ts'

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
  /** Most requests in all journals; the least recently used sessions' go first. Default 100,000. */
  journalTotalLimit?: number
  /** Largest accepted request body in bytes. Default 100 kB (102,400). */
  bodyLimitBytes?: number
  /**
   * Extra scenarios: files as objects (`defineScenario`, JSON, YAML), files read by
   * `readScenarioFiles`, or built ones; checked now, a `ScenarioError` lists every problem.
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
   * Origins besides a request's own (its `Host`) whose pages may `POST` or `DELETE` under
   * `/__sandbox`: exact or `*` patterns (`https://*.example.com`); a `*` alone allows none.
   * Others get a 403, token or not. Default: the local origins (`http://localhost:*`...).
   */
  controlOrigins?: readonly string[] | undefined
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
}

/** What the sandbox holds (sessions in memory, all journals, all rules), against its bounds. */
export interface SandboxUsage {
  sessions: number
  maxSessions: number
  journalEntries: number
  journalLimit: number
  journalTotalLimit: number
  faultRules: number
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
export function settingsOf(options: SandboxOptions, defaultSeed: number) {
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

export type SandboxSettings = Readonly<ReturnType<typeof settingsOf>>

/** The sandbox as the control API and its own modules see it (so they do not import it). */
export interface ControlContext {
  readonly ready: Promise<void>
  readonly events: SandboxEvents
  readonly stages: readonly SandboxStage[]
  readonly settings: SandboxSettings
  readonly personas: readonly Persona[]
  readonly operations: readonly Operation[]
  readonly scenarios: Readonly<Record<string, Scenario>>
  readonly journal: RequestJournal
  readonly faults: FaultRegistry
  readonly clocks: SessionClocks
  readonly snapshots: SavedSnapshots
  readonly openapiDocument: (() => unknown) | undefined
  reset(options?: ResetOptions): Promise<ResetResult>
  store(session?: string): Promise<Store>
  addScenarios(inputs: ScenarioInputs): Scenario[]
  uploadScenario(file: unknown): Promise<Scenario>
  describeSessions(): { id: string; scenario: string; seed: number }[]
  dropSession(session: string): void
  usage(): SandboxUsage
}

/** What the modules that answer requests and reset share besides the sandbox's own members. */
export interface SandboxParts {
  sandbox: ControlContext
  sessions: SessionRegistry
  journal: SessionJournals
  cache: SnapshotCache
  /** The starting snapshot; only after `ready`. */
  starting(): Snapshot
  pipelineSettings: PipelineSettings
  sessionLog: SessionLog | undefined
}
