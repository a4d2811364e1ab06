/**
 * @module
 * `platform-sandbox`: runs the program of `cli-options.ts`, whose default action reads the
 * scenario files (a bad one prints every problem, exit code 2), starts the server, prints where
 * it is and how to sign in, and closes gracefully on SIGINT or SIGTERM.
 */
import { scenarioNames } from '../fixtures/scenarios.ts'
import { ScenarioError, type ScenarioSource } from '../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../mocks/scenarios/load-files.ts'
import { type ControlAccess, exposureWarning, listenAddress } from '../server/exposure.ts'
import type { ServerOptions } from '../server/options.ts'
import { type RunningServer, startServer } from '../server/start-server.ts'
import { browserUrl, exitIfPortInUse, formatBanner } from './banner.ts'
import { type CliOptions, createProgram } from './cli-options.ts'

/** The wait for requests in flight: the process exits within the 5 s a container stop gives. */
const CLOSE_TIMEOUT_MS = 4_000

/** The line for a state directory the server cannot write (a bind mount of another user...). */
function stateDirProblem(code: string | undefined, stateDir: string | undefined) {
  if (stateDir === undefined || !['EACCES', 'EPERM', 'EROFS', 'ENOTDIR'].includes(code ?? ''))
    return undefined
  const user = process.getuid ? ` by user ${process.getuid()}` : ''
  return `platform-sandbox: cannot write the state directory ${stateDir} (${code}): make it writable${user}, or choose another with --state-dir`
}

const INVALID_SCENARIO_EXIT_CODE = 2

function reportScenarioError(error: ScenarioError): void {
  console.error(`platform-sandbox: ${error.message.split(':\n')[0]}:`)
  for (const problem of error.problems) console.error(`  ${problem}`)
}

/** The options with the scenario files read; exits on a bad file or an unknown scenario. */
async function withScenarioFiles({
  scenarioFiles,
  ...options
}: CliOptions): Promise<ServerOptions> {
  if (scenarioFiles === undefined) return options
  let sources: ScenarioSource[]
  try {
    sources = await readScenarioFiles(scenarioFiles)
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error
    reportScenarioError(error)
    process.exit(INVALID_SCENARIO_EXIT_CODE)
  }
  const names = [
    ...scenarioNames,
    ...sources
      .map(({ file }) => (file as { name?: unknown } | null)?.name)
      .filter((name) => typeof name === 'string'),
  ]
  if (options.scenario !== undefined && !names.includes(options.scenario)) {
    console.error(
      `platform-sandbox: unknown scenario "${options.scenario}" (known: ${names.join(', ')})`,
    )
    process.exit(1)
  }
  return { ...options, scenarios: sources }
}

/** Starts the server with the options of the command line and reports where it is. */
async function serve({ replayFrom, operationsFile, ...cliOptions }: CliOptions): Promise<void> {
  const replay = replayFrom && (await import('./commands/replay-report.ts'))
  if (replay && replayFrom) cliOptions.replay = replay.readReplayFile(replayFrom)
  const options = await withScenarioFiles(cliOptions)
  const own = operationsFile && (await import('./operations-file.ts'))
  if (own && operationsFile) options.operations = await own.readOperations(operationsFile)
  let running: RunningServer
  try {
    running = await startServer({ closeTimeoutMs: CLOSE_TIMEOUT_MS, ...options })
  } catch (error) {
    if (error instanceof ScenarioError) {
      reportScenarioError(error)
      process.exit(INVALID_SCENARIO_EXIT_CODE)
    }
    if (own && operationsFile) own.exitOnInvalid(error, operationsFile)
    const code = (error as NodeJS.ErrnoException | undefined)?.code
    const problem = stateDirProblem(code, options.stateDir)
    if (problem) {
      console.error(problem)
      process.exit(2)
    }
    if ((error as Error | undefined)?.name === 'RedisUnreachable') {
      console.error(`platform-sandbox: ${(error as Error).message}: check --state`)
      process.exit(1)
    }
    exitIfPortInUse(error, `${options.host}:${options.port}`)
    throw error
  }

  let signals = 0
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1
    if (signals > 1) {
      console.error(`${signal} again: exiting without waiting`)
      process.exit(1)
    }
    const closed = running.close()
    console.log(`\n${signal} received: no new connections, finishing in-flight requests...`)
    closed.then(
      () => {
        console.log('Sandbox closed.')
        process.exit(0)
      },
      (error: unknown) => {
        console.error('platform-sandbox: failed to close:', error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
  // Only now: whoever waits for the banner may send a signal at once.
  if (running.stateStore) {
    const ignored = options.stateDir ? ` (the state directory ${options.stateDir} is not used)` : ''
    console.log(
      `State in Redis ${running.stateStore.where}${ignored}: ${running.restored!.sessions} sessions (each loaded when first used), ${running.restored!.snapshots} saved snapshots restored`,
    )
  } else if (running.restored) {
    console.log(
      `State directory ${options.stateDir}: ${running.restored.sessions} session logs (each loaded when its session is first used), ${running.restored.snapshots} saved snapshots restored`,
    )
  } else if (options.fsync || options.sessionTtlMs !== undefined) {
    console.error(
      'platform-sandbox: --fsync and --session-ttl apply to a state directory: without --state-dir they do nothing',
    )
  }
  if (running.stateStore && options.fsync) {
    console.error(
      'platform-sandbox: --fsync applies to a state directory: with Redis, its own persistence settings (appendfsync) decide what an acknowledged write survives',
    )
  }
  const control: ControlAccess =
    options.controlToken !== undefined ? 'token' : options.controlClosed ? 'closed' : 'open'
  const warning = exposureWarning(running.host, running.port, control)
  if (warning) console.error(warning)
  console.log(
    formatBanner(browserUrl(running.url), running.sandbox, {
      // Beyond loopback, the address actually bound comes first.
      ...(warning ? { address: listenAddress(running.host, running.port) } : {}),
      control,
    }),
  )
  if (replay && running.sandbox.replay) await replay.reportReplay(running.sandbox.replay)
}

// An empty variable is unset, as `SANDBOX_PORT= platform-sandbox` means.
for (const [name, value] of Object.entries(process.env)) {
  if (value === '' && /^(SANDBOX_|PORT$)/.test(name)) delete process.env[name]
}
createProgram(serve)
  .parseAsync(process.argv.slice(2), { from: 'user' })
  .catch((error: unknown) => {
    // A subcommand's bad input, thrown from its own bundle file (so not by class): one line.
    if (error instanceof Error && error.name === 'UsageError') {
      console.error(`platform-sandbox: ${error.message}`)
      process.exit(2)
    }
    console.error('platform-sandbox: failed to start:', error)
    process.exit(1)
  })
