/**
 * @module
 * The Node entry for test authors: the sandbox handlers on msw's `setupServer`.
 */

import { basename } from 'node:path'
import { setupServer } from 'msw/node'
import { CookieJar } from 'tough-cookie'
import type { ScenarioFromHarOptions } from '../../../recordings/learn/learn-scenario.ts'
import { readRecordingsFile } from '../../../recordings/replay/read-file.ts'
import { type Recordings, RecordingsFormatError } from '../../../recordings/replay/recordings.ts'
import {
  checkReplayAndWarn,
  type Replay,
  type ReplayOptions,
} from '../../../recordings/replay/replay.ts'
import { loadContractCheck } from '../../contract-check.ts'
import { jsonErrorMessage, quickChecksWith } from '../../core/index.ts'
import {
  createSandbox,
  type ResetOptions,
  type Sandbox,
  type SandboxOptions,
} from '../../sandbox.ts'
import type { ScenarioFile } from '../../scenarios/scenario-file.ts'
import { createHandlers, type HandlerOptions } from './handlers.ts'

// Answers of operations of your own are checked with ajv here (loaded only when some come).
quickChecksWith(() => import('../../adapters/quick-check.ts'))

/** Replay options of the Node entry: the recordings may also be a file path. */
export interface NodeReplayOptions extends Omit<ReplayOptions, 'recordings'> {
  /** A HAR document or an examples file, their list, or the path of such a JSON file. */
  recordings: Recordings | string
}

export interface SandboxServerOptions extends Omit<SandboxOptions, 'replay'>, HandlerOptions {
  /** Recorded answers layered in front of the operations. */
  replay?: NodeReplayOptions | Replay
}

export interface SandboxServer {
  sandbox: Sandbox
  server: ReturnType<typeof setupServer>
  /** The recorded answers of `replay` that break the merged contract (also printed). */
  replayProblems: Promise<string[]>
  /**
   * The one line between tests: drops every extra session, resets the default one (to the
   * starting scenario or the one given), restores the handlers and forgets the cookies.
   */
  reset(options?: ResetOptions): Promise<void>
}

/**
 * Creates a sandbox and an msw server that answers with it. Cookies work as in a browser:
 * an answer's `Set-Cookie` goes back on later requests to that host, unless a request says
 * `credentials: 'omit'`.
 *
 * @example
 * const { server, reset } = setupSandboxServer()
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
 * afterEach(() => reset())
 * afterAll(() => server.close())
 */
export function setupSandboxServer(options: SandboxServerOptions = {}): SandboxServer {
  const { replay, ...rest } = options
  const sandbox = createSandbox(
    replay === undefined || 'answer' in replay || typeof replay.recordings !== 'string'
      ? { ...rest, replay: replay as ReplayOptions | Replay | undefined }
      : { ...rest, replay: { ...replay, recordings: readRecordingsFile(replay.recordings) } },
  )
  const cookieJar = options.cookieJar ?? new CookieJar()
  const server = setupServer(...createHandlers(sandbox, { ...options, cookieJar }))
  return {
    sandbox,
    server,
    replayProblems: sandbox.replay
      ? checkReplayAndWarn(sandbox.replay, loadContractCheck)
      : Promise.resolve([]),
    async reset(resetOptions) {
      server.resetHandlers()
      cookieJar.removeAllCookiesSync()
      const { session, ...scenario } = resetOptions ?? {}
      if (session === undefined) await sandbox.resetAll(scenario)
      else await sandbox.reset(resetOptions)
    },
  }
}

/**
 * The scenario a HAR document (or file) shows: the records that make every exchange it covers
 * come out the same when its requests are sent again. See `platform-sandbox scenario from-har`.
 *
 * @example
 * const learned = await scenarioFromHar('recordings/staging.har', { name: 'staging-session' })
 * const { server } = setupSandboxServer({ scenarios: [learned], scenario: 'staging-session' })
 */
export async function scenarioFromHar(
  har: unknown,
  options: ScenarioFromHarOptions = {},
): Promise<ScenarioFile> {
  const { learnScenario, learnScenarioFromText } = await import(
    '../../../recordings/learn/learn-scenario.ts'
  )
  if (typeof har !== 'string') return (await learnScenario(har, options)).scenario
  const { readFile } = await import('node:fs/promises')
  const { utf8Text } = await import('../../../recordings/replay/read-file.ts')
  const text = utf8Text(await readFile(har))
  try {
    return (await learnScenarioFromText(text, { source: basename(har), ...options })).scenario
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new RecordingsFormatError(
        `${har}: is not valid JSON (${jsonErrorMessage(error, text)})`,
      )
    }
    if (error instanceof RecordingsFormatError) {
      throw new RecordingsFormatError(`${har}: ${error.message}`)
    }
    throw error
  }
}

export type { ScenarioSource } from '../../scenarios/compile-scenarios.ts'
export { ScenarioError } from '../../scenarios/compile-scenarios.ts'
export { readScenarioFiles } from '../../scenarios/load-files.ts'
export { defineScenario } from '../../scenarios/scenario-file.ts'
export type {
  HandlerOptions,
  Recordings,
  Replay,
  ReplayOptions,
  ResetOptions,
  Sandbox,
  SandboxOptions,
  ScenarioFile,
  ScenarioFromHarOptions,
}
export { createHandlers, createSandbox }
