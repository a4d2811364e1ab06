/**
 * @module
 * The command line of `platform-sandbox`: flags, their environment variables and
 * their checks. A bad value ends the process with a message and exit code 1.
 */
import { Command, InvalidArgumentError, Option } from 'commander'
import { DEFAULT_SEED, scenarioNames } from '../fixtures/scenarios.ts'
import { loadReplay } from './commands/input.ts'
import { controlAccess } from './exposure.ts'
import {
  DEFAULT_CORS_ORIGINS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  OptionError,
  parseBoolean,
  parseControlToken,
  parseDuration,
  parseHost,
  parseLimit,
  parseLogFormat,
  parseOrigins,
  parsePort,
  parseScenario,
  parseSeed,
  type ServerOptions,
} from './options.ts'

type Environment = Readonly<Record<string, string | undefined>>

export interface CliOptions extends ServerOptions {
  /** Paths given with `--scenario-file`: files or folders, read before start. */
  scenarioFiles?: string[]
}

/** Each option that has environment variables, the first one set wins. */
const environment = {
  port: ['SANDBOX_PORT', 'PORT'],
  host: ['SANDBOX_HOST'],
  scenario: ['SANDBOX_SCENARIO'],
  seed: ['SANDBOX_SEED'],
  strictContract: ['SANDBOX_STRICT_CONTRACT'],
  corsOrigin: ['SANDBOX_CORS_ORIGIN'],
  quiet: ['SANDBOX_QUIET'],
  log: ['SANDBOX_LOG'],
  secret: ['SANDBOX_SECRET'],
  controlToken: ['SANDBOX_CONTROL_TOKEN'],
  controlOpen: ['SANDBOX_CONTROL_OPEN'],
  stateDir: ['SANDBOX_STATE_DIR'],
  maxSessions: ['SANDBOX_MAX_SESSIONS'],
  journalLimit: ['SANDBOX_JOURNAL_LIMIT'],
  fsync: ['SANDBOX_FSYNC'],
  sessionTtl: ['SANDBOX_SESSION_TTL'],
} as const

type Key = keyof typeof environment

const parsers: Record<Key, (value: string, name: string) => unknown> = {
  port: parsePort,
  host: parseHost,
  // Checked once the scenario files are known (see `parseCliArguments`).
  scenario: (value) => value,
  seed: parseSeed,
  strictContract: parseBoolean,
  corsOrigin: parseOrigins,
  quiet: parseBoolean,
  log: parseLogFormat,
  secret: (value) => {
    if (value === '') throw new OptionError('secret must not be empty')
    return value
  },
  controlToken: parseControlToken,
  controlOpen: parseBoolean,
  stateDir: (value) => {
    if (value.trim() === '') throw new OptionError('state directory must not be empty')
    return value
  },
  maxSessions: parseLimit,
  journalLimit: parseLimit,
  fsync: parseBoolean,
  sessionTtl: parseDuration,
}

/** Turns an `OptionError` into the error commander reports as an invalid argument. */
function argument<T>(parse: (value: string) => T) {
  return (value: string): T => {
    try {
      return parse(value)
    } catch (error) {
      if (error instanceof OptionError) throw new InvalidArgumentError(error.message)
      throw error
    }
  }
}

/** The `platform-sandbox` command, without parsing anything yet. */
export function createProgram(): Command {
  return new Command('platform-sandbox')
    .description(
      'A stateful sandbox of the Platform Backend API v1.0, with a control API under /__sandbox.',
    )
    .addOption(
      new Option(
        '-p, --port <port>',
        `port to listen on, 0 for any free port (env SANDBOX_PORT or PORT, default ${DEFAULT_PORT})`,
      ).argParser(argument(parsePort)),
    )
    .addOption(
      new Option(
        '--host <host>',
        `interface to listen on (env SANDBOX_HOST, default ${DEFAULT_HOST})`,
      ).argParser(argument(parseHost)),
    )
    .addOption(
      new Option(
        '-s, --scenario <name>',
        `starting scenario: ${scenarioNames.join(', ')} (env SANDBOX_SCENARIO, default default)`,
      ),
    )
    .addOption(
      new Option(
        '--scenario-file <path>',
        'load a scenario file (.json, .yaml, .yml) or every such file of a folder; repeat the flag for more. An invalid file prints every problem and exits 2',
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option(
        '--seed <n>',
        `seed of the generated data (env SANDBOX_SEED, default ${DEFAULT_SEED})`,
      ).argParser(argument(parseSeed)),
    )
    .addOption(
      new Option(
        '--strict-contract',
        'answer 400 when dryRun is missing, as the published contract requires (env SANDBOX_STRICT_CONTRACT)',
      ),
    )
    .addOption(
      new Option(
        '--cors-origin <origins>',
        'allowed CORS origin(s): repeat the flag or give a comma list; * wildcards allowed, * alone allows any (env SANDBOX_CORS_ORIGIN, default any http://localhost:* and http://127.0.0.1:*)',
      ).argParser((value: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        ...argument(parseOrigins)(value),
      ]),
    )
    .addOption(new Option('-q, --quiet', 'do not log requests (env SANDBOX_QUIET)'))
    .addOption(
      new Option(
        '--log <format>',
        'request log format: text (coloured on a terminal) or json, one object per line (env SANDBOX_LOG, default text)',
      ).argParser(argument(parseLogFormat)),
    )
    .addOption(
      new Option(
        '--secret <secret>',
        'secret the access tokens are signed with (env SANDBOX_SECRET)',
      ).argParser(argument((value) => parsers.secret(value, 'secret') as string)),
    )
    .addOption(
      new Option(
        '--replay <file>',
        'answer from a recording first (a HAR file, or an examples file of spec/examples); the rest goes to the model',
      ),
    )
    .addOption(
      new Option(
        '--replay-match <ignored>',
        'fields left out of replay matching: query parameter or JSON body field names (dotted for nested), comma list',
      ).argParser((value: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        ...value
          .split(',')
          .map((field) => field.trim())
          .filter(Boolean),
      ]),
    )
    .addOption(
      new Option('--replay-only', 'answer 404 when no recording matches, instead of the model'),
    )
    .addOption(
      new Option(
        '--control-token <token>',
        'require Authorization: Bearer <token> on the control API /__sandbox/* except GET /__sandbox/health (env SANDBOX_CONTROL_TOKEN)',
      ).argParser(argument(parseControlToken)),
    )
    .addOption(
      new Option(
        '--control-open',
        'leave the control API open without a token when listening beyond loopback, where it is closed otherwise: for a throwaway sandbox only (env SANDBOX_CONTROL_OPEN)',
      ),
    )
    .addOption(
      new Option(
        '--state-dir <dir>',
        "keep each session's writes in a log under <dir>, loaded when the session is next used, after a restart too (env SANDBOX_STATE_DIR; default: state in memory only)",
      ).argParser(argument((value) => parsers.stateDir(value, 'state-dir') as string)),
    )
    .addOption(
      new Option(
        '--max-sessions <n>',
        'sessions kept in memory; past it the least recently used is evicted whole (env SANDBOX_MAX_SESSIONS, default 5000)',
      ).argParser(argument((value) => parseLimit(value, 'max-sessions'))),
    )
    .addOption(
      new Option(
        '--journal-limit <n>',
        "requests kept in each session's journal (env SANDBOX_JOURNAL_LIMIT, default 1000)",
      ).argParser(argument((value) => parseLimit(value, 'journal-limit'))),
    )
    .addOption(
      new Option(
        '--fsync',
        'with --state-dir: force each log line to the disk before the write is applied, so an answered write survives a power cut (env SANDBOX_FSYNC)',
      ),
    )
    .addOption(
      new Option(
        '--session-ttl <duration>',
        'with --state-dir: delete the logs of sessions unused for this long, such as 12h or 30d; 0 or off keeps them (env SANDBOX_SESSION_TTL, default 7d)',
      ).argParser(argument((value) => parseDuration(value, 'session-ttl'))),
    )
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      [
        '',
        'Commands (each with its own --help):',
        '  record --target <url>           record a backend into a HAR file, through a proxy',
        '  examples from-har <file.har>    turn recorded exchanges into spec/examples files',
        '  scenario from-har <file.har>    learn a scenario file from a recording (its ids and states)',
        '  diff --target <url>             report where a backend and the sandbox differ',
        '  state check <dir>               name every line of a --state-dir a start cannot read',
        '  state repair <dir>              set aside each session log from its bad line on',
        '  mcp [--port <n> | --url <url>]  the MCP server over stdio, for coding agents',
      ].join('\n'),
    )
    .allowExcessArguments(false)
    .showHelpAfterError('(run platform-sandbox --help for the options)')
}

/**
 * Parses the arguments (without `node` and the script) and the environment into
 * server options. Flags win over environment variables.
 *
 * @example
 * parseCliArguments(['--port', '0', '--scenario', 'empty'], process.env)
 */
export function parseCliArguments(
  args: readonly string[],
  env: Environment,
  program: Command = createProgram(),
): CliOptions {
  program.parse(args, { from: 'user' })
  const flags = program.opts<Partial<Record<Key, unknown>> & { scenarioFile?: string[] }>()
  const values: Partial<Record<Key, unknown>> = {}
  const from: Partial<Record<Key, string>> = {}
  for (const key of Object.keys(environment) as Key[]) {
    if (flags[key] !== undefined) {
      values[key] = flags[key]
      continue
    }
    const name = environment[key].find(
      (variable) => env[variable] !== undefined && env[variable] !== '',
    )
    if (name === undefined) continue
    from[key] = name
    try {
      values[key] = parsers[key](env[name]!, name)
    } catch (error) {
      if (!(error instanceof OptionError)) throw error
      program.error(`error: environment variable ${name} is invalid: ${error.message}`, {
        code: 'platform-sandbox.invalidEnvironment',
      })
    }
  }

  // Without scenario files the scenario must be a built-in one; with them, the CLI checks
  // it once the files are read.
  if (values.scenario !== undefined && flags.scenarioFile === undefined) {
    try {
      parseScenario(values.scenario as string)
    } catch (error) {
      if (!(error instanceof OptionError)) throw error
      const source = from.scenario
        ? `environment variable ${from.scenario} is invalid`
        : `option '-s, --scenario <name>' argument '${values.scenario}' is invalid`
      program.error(`error: ${source}: ${error.message}`, {
        code: 'platform-sandbox.invalidScenario',
      })
    }
  }

  const options: CliOptions = {
    port: (values.port as number | undefined) ?? DEFAULT_PORT,
    host: (values.host as string | undefined) ?? DEFAULT_HOST,
    scenario: (values.scenario as string | undefined) ?? 'default',
    seed: (values.seed as number | undefined) ?? DEFAULT_SEED,
    strictContract: values.strictContract === true,
    corsOrigins: (values.corsOrigin as string[] | undefined) ?? DEFAULT_CORS_ORIGINS,
    quiet: values.quiet === true,
  }
  if (values.secret !== undefined) options.secret = values.secret as string
  if (values.log !== undefined) options.logFormat = values.log as 'text' | 'json'
  if (flags.scenarioFile !== undefined) options.scenarioFiles = flags.scenarioFile
  const replay = program.opts<{ replay?: string; replayMatch?: string[]; replayOnly?: boolean }>()
  if (replay.replay !== undefined) {
    options.replay = loadReplay(replay.replay, {
      ignore: replay.replayMatch ?? [],
      only: replay.replayOnly === true,
    })
  }
  if (values.controlToken !== undefined && values.controlOpen === true) {
    program.error(
      `error: ${from.controlOpen ?? '--control-open'} and ${from.controlToken ?? '--control-token'} exclude each other: give the token to protect the control API, or open it, not both`,
      { code: 'platform-sandbox.conflictingOptions' },
    )
  }
  if (values.controlToken !== undefined) options.controlToken = values.controlToken as string
  if (controlAccess(options.host!, options.controlToken, values.controlOpen === true) === 'closed')
    options.controlClosed = true
  if (values.stateDir !== undefined) options.stateDir = values.stateDir as string
  if (values.maxSessions !== undefined) options.maxSessions = values.maxSessions as number
  if (values.journalLimit !== undefined) options.journalLimit = values.journalLimit as number
  if (values.fsync === true) options.fsync = true
  if (values.sessionTtl !== undefined) options.sessionTtlMs = values.sessionTtl as number
  return options
}
