/**
 * @module
 * The `platform-sandbox` program: the server's options with their environment variables, and
 * the subcommands (`commands/program.ts`). A bad value ends it with exit code 1.
 */
import { Command, InvalidArgumentError, Option } from 'commander'
import { DEFAULT_SEED, scenarioNames } from '../fixtures/scenarios.ts'
import packageJson from '../package.json' with { type: 'json' }
import { controlAccess } from '../server/exposure.ts'
import type { ServerOptions } from '../server/options.ts'
import { DEFAULT_CORS_ORIGINS, DEFAULT_HOST, DEFAULT_PORT } from '../server/options.ts'
import {
  addOrigins,
  collect,
  commaList,
  limit,
  notEmpty,
  parseBoolean,
  parseControlToken,
  parseDuration,
  parseHost,
  parsePort,
  parseSeed,
  parseStateUrl,
} from './cli-checks.ts'
import { addSubcommands } from './commands/program.ts'

export interface CliOptions extends ServerOptions {
  /** Paths given with `--scenario-file`: files or folders, read before start. */
  scenarioFiles?: string[]
  /** `--operations`: the file of operations of your own, imported before start. */
  operationsFile?: string
  /** `--replay` with `--replay-match` and `--replay-only`: the file is read before start. */
  replayFrom?: { file: string; ignore: string[]; only: boolean }
}

/** The variable `name` through `parse`; a bad value ends the program naming the variable. */
function fromEnv<T>(program: Command, name: string, parse: (value: string) => T): T {
  try {
    return parse(process.env[name] ?? '')
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error
    return program.error(`error: environment variable ${name} is invalid: ${error.message}`)
  }
}

/** An option; with a variable, that variable when the flag is not given. */
function option<T>(
  flags: string,
  description: string,
  variable?: string,
  parse?: (value: string, previous: T) => T,
  fallback?: T,
): Option {
  const made = new Option(flags, description).default(fallback)
  if (parse) made.argParser(parse)
  return variable ? made.env(variable) : made
}

/** The server's options, in the order `--help` lists them. */
const serverFlags = () => [
  option(
    '-p, --port <port>',
    'port to listen on, 0 for any free port; PORT is read without SANDBOX_PORT',
    'SANDBOX_PORT',
    parsePort,
    DEFAULT_PORT,
  ),
  option('--host <host>', 'interface to listen on', 'SANDBOX_HOST', parseHost, DEFAULT_HOST),
  option(
    '-s, --scenario <name>',
    `starting scenario: ${scenarioNames.join(', ')}, or one of --scenario-file`,
    'SANDBOX_SCENARIO',
    undefined,
    'default',
  ),
  option(
    '--scenario-file <path>',
    'load a scenario file (.json, .yaml, .yml) or every such file of a folder; repeat the flag for more. An invalid file prints every problem and exits 2',
    undefined,
    collect,
  ),
  option(
    '--operations <file>',
    'serve operations of your own: an ES module (.mjs, .js; .ts on Node 22.18+) whose default export is their array, or a function ({ defineOperation, z }) => [...]',
    'SANDBOX_OPERATIONS',
  ),
  option(
    '--no-check-answers',
    'do not check the answers of operations of your own against their declared response schemas',
  ),
  option('--seed <n>', 'seed of the generated data', 'SANDBOX_SEED', parseSeed, DEFAULT_SEED),
  option(
    '--strict-contract',
    'answer 400 when dryRun is missing, as the published contract requires',
    'SANDBOX_STRICT_CONTRACT',
  ),
  option(
    '--cors-origin <origins>',
    'allowed CORS origin(s): repeat the flag or give a comma list; * wildcards allowed, * alone allows any',
    'SANDBOX_CORS_ORIGIN',
    addOrigins,
  ).default(DEFAULT_CORS_ORIGINS, 'any http://localhost:* and http://127.0.0.1:*'),
  option('-q, --quiet', 'do not log requests', 'SANDBOX_QUIET'),
  option(
    '--log <format>',
    'request log format: text (the default, coloured on a terminal) or json, one object per line',
    'SANDBOX_LOG',
  ).choices(['text', 'json']),
  option(
    '--secret <secret>',
    'secret the access tokens are signed with',
    'SANDBOX_SECRET',
    notEmpty('secret'),
  ),
  option(
    '--replay <file>',
    'answer from a recording first (a HAR file, or an examples file of spec/examples); the rest goes to the model',
  ),
  option(
    '--replay-match <ignored>',
    'fields left out of replay matching: query parameter or JSON body field names (dotted for nested), comma list',
    undefined,
    commaList,
  ),
  option('--replay-only', 'answer 404 when no recording matches, instead of the model'),
  option(
    '--control-token <token>',
    'require Authorization: Bearer <token> on the control API /__sandbox/* except the probes GET /__sandbox/health and /__sandbox/ready; at least 8 visible ASCII characters without spaces',
    'SANDBOX_CONTROL_TOKEN',
    parseControlToken,
  ),
  option(
    '--control-open',
    'serve the control API, the dashboard and MCP without a token to anyone: beyond loopback they are closed otherwise, and on loopback they answer a loopback Host only; for a throwaway sandbox only, never with a token',
    'SANDBOX_CONTROL_OPEN',
  ).conflicts('controlToken'),
  option(
    '--state-dir <dir>',
    "keep each session's writes in a log under <dir>, loaded when the session is next used, after a restart too; without it, state is in memory only",
    'SANDBOX_STATE_DIR',
    notEmpty('state directory'),
  ),
  option(
    '--state <url>',
    'keep sessions, saved snapshots and uploaded scenarios in Redis (redis://[user:password@]host:port/db, rediss:// for TLS), shared by every instance given the same URL; wins over --state-dir',
    'SANDBOX_STATE',
    parseStateUrl,
  ),
  option(
    '--max-sessions <n>',
    'sessions kept in memory, 5000 by default; past it the least recently used is evicted whole',
    'SANDBOX_MAX_SESSIONS',
    limit('max-sessions'),
  ),
  option(
    '--journal-limit <n>',
    "requests kept in each session's journal, 1000 by default",
    'SANDBOX_JOURNAL_LIMIT',
    limit('journal-limit'),
  ),
  option(
    '--fsync',
    'with --state-dir: force each log line to the disk before the write is applied, so an answered write survives a power cut',
    'SANDBOX_FSYNC',
  ),
  option(
    '--session-ttl <duration>',
    'with --state-dir or --state: delete the logs of sessions unused for this long, such as 12h or 30d (7d by default); 0 or off keeps them',
    'SANDBOX_SESSION_TTL',
    parseDuration,
  ),
  option('--no-metrics', 'keep no metrics: GET /__sandbox/metrics (Prometheus) answers 404'),
]

/** The program; `serve` runs the server with the options parsed. */
export function createProgram(serve?: (options: CliOptions) => Promise<void>): Command {
  const program = new Command('platform-sandbox').description(
    'A stateful sandbox of the Platform Backend API v1.0, with a control API under /__sandbox.',
  )
  for (const flag of serverFlags()) program.addOption(flag)
  // Commander sets a flag whose variable is defined, whatever its value: `false`, `0`, `no`,
  // `off` or nothing leave it unset here, and a value neither true nor false is refused.
  for (const flag of program.options.filter(
    (candidate) => candidate.envVar && candidate.isBoolean(),
  )) {
    program.on(`optionEnv:${flag.name()}`, () => {
      const value = fromEnv(program, flag.envVar!, (text) => parseBoolean(flag.envVar!, text))
      program.setOptionValueWithSource(flag.attributeName(), value || undefined, 'env')
    })
  }
  program
    .version(packageJson.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError('(run platform-sandbox --help for the options)')
    // The server's options come before a subcommand, whose own may have the same names.
    .enablePositionalOptions()
    // A program with an action has neither `help <command>` nor commander's unknown-command
    // error by default: any word is an excess argument of the server.
    .helpCommand(true)
    .action(() =>
      program.args.length > 0
        ? (program as Command & { unknownCommand(): never }).unknownCommand()
        : serve?.(serverOptions(program)),
    )
  addSubcommands(program)
  // Only now: the subcommands, made before, keep refusing excess arguments.
  return program.allowExcessArguments().addHelpText(
    'after',
    `
Examples (each command has its own --help):
  platform-sandbox --port 0 --scenario empty --state-dir ./state
  platform-sandbox record --target <url> --out staging.har
  platform-sandbox examples from-har <file.har>
  platform-sandbox scenario from-har <file.har>
  platform-sandbox diff --target <url> --report drift.md
  platform-sandbox state check <dir>
  platform-sandbox state repair <dir>
  platform-sandbox mcp --port 4010`,
  )
}

function serverOptions(program: Command): CliOptions {
  const {
    corsOrigin,
    log,
    scenarioFile,
    sessionTtl,
    replay,
    replayMatch,
    replayOnly,
    controlOpen,
    metrics,
    operations: operationsFile,
    ...flags
  } = program.opts()
  // Hosting platforms set PORT: read when neither --port nor SANDBOX_PORT is given.
  if (program.getOptionValueSource('port') === 'default' && process.env.PORT)
    flags.port = fromEnv(program, 'PORT', parsePort)
  // With scenario files, the CLI checks it once the files are read.
  if (!scenarioFile && !scenarioNames.includes(flags.scenario)) {
    const source =
      program.getOptionValueSource('scenario') === 'env'
        ? 'environment variable SANDBOX_SCENARIO'
        : `option '-s, --scenario <name>' argument '${flags.scenario}'`
    program.error(
      `error: ${source} is invalid: unknown scenario "${flags.scenario}" (known: ${scenarioNames.join(', ')})`,
    )
  }
  const options = {
    ...flags,
    strictContract: flags.strictContract === true,
    corsOrigins: corsOrigin,
    quiet: flags.quiet === true,
    logFormat: log,
    scenarioFiles: scenarioFile,
    operationsFile,
    checkAnswers: flags.checkAnswers === false ? false : undefined,
    sessionTtlMs: sessionTtl,
    replayFrom: replay && { file: replay, ignore: replayMatch ?? [], only: replayOnly === true },
    controlClosed:
      controlAccess(flags.host, flags.controlToken, controlOpen === true) === 'closed' || undefined,
    controlOpen: controlOpen === true || undefined,
    metrics: metrics === false ? false : undefined,
  }
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
}

/** The server options of `args` (without `node` and the script) and `env` (empty is unset). */
export function parseCliArguments(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  program: Command = createProgram(),
): CliOptions {
  const saved = process.env
  // Commander reads `process.env`: `env` stands in for it.
  process.env = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  try {
    program.parse(args, { from: 'user' })
    return serverOptions(program)
  } finally {
    process.env = saved
  }
}
