/**
 * @module
 * The subcommands of `platform-sandbox`: recorded traffic, the state directory and the MCP
 * server over stdio. Each action imports its module when it runs, from a bundle file apart
 * (`scripts/bundle-cli.mjs`), so that starting the server loads none of them. Bad input ends
 * them with exit code 2.
 */
import { type Command, Option } from 'commander'
import { isValidSessionId, SESSION_ID_RULE } from '../../mocks/core/index.ts'
import { DEFAULT_HOST } from '../../server/options.ts'
import { startServer } from '../../server/start-server.ts'
import { collect, invalid } from '../cli-checks.ts'

const integer = (value: string) =>
  /^\d+$/.test(value) ? Number(value) : invalid(`"${value}" is not a non-negative integer`)
const port = (value: string) =>
  /^\d{1,5}$/.test(value) && +value <= 65_535
    ? Number(value)
    : invalid('must be a port number from 0 to 65535')
const scenarioFile = (what: string) =>
  new Option('--scenario-file <path>', `${what}; repeatable`).argParser(collect)

/** A subcommand of `parent`, whose errors end the process with exit code 2. */
function subcommand(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .showHelpAfterError(false)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
}

export function addSubcommands(program: Command): void {
  subcommand(
    program,
    'record',
    'record a backend: a proxy that writes every exchange to a HAR file',
  )
    .requiredOption('--target <url>', 'the backend to record, http(s)://host[:port][/prefix]')
    .option('--out <file.har>', 'the HAR file to append to', 'recording.har')
    .option('-p, --port <port>', 'port to listen on, 0 for any', integer, 4011)
    .option('--host <host>', 'interface to listen on', DEFAULT_HOST)
    .option(
      '--redact <header-or-pointer>',
      'also redact this header, or this JSON pointer (/a/b) in bodies; repeatable',
      collect,
    )
    .option('--no-redact', 'keep tokens, cookies and passwords in the file')
    .option('--timeout <ms>', 'longest wait for the target', integer, 30_000)
    .action(async (options) =>
      (await import('./record-command.ts')).runRecordCommand({
        ...options,
        redact: options.redact ?? true,
      }),
    )
  subcommand(program, 'examples', 'recorded exchanges and the examples of spec/examples')
    .command('from-har')
    .description('add the exchanges of a HAR file to the <operationId>.json example files')
    .argument('<file.har>', 'the recording')
    .option('--operation <operationId>', 'only the exchanges of this operation')
    .option('--out-dir <dir>', 'folder of the example files', 'spec/examples')
    .action(async (file, options) =>
      (await import('./examples-command.ts')).runExamplesFromHar(file, options),
    )
  subcommand(program, 'scenario', 'scenarios learned from recorded traffic')
    .command('from-har')
    .description(
      'learn the scenario a HAR shows (ids, states, payment accounts) and write it as a scenario file; names each exchange it could not reproduce',
    )
    .argument('<file.har>', 'the recording (what record writes, or a browser export)')
    .option(
      '--out <file.yaml>',
      'the scenario file to write (default: <name>.scenario.yaml beside the HAR)',
    )
    .option('--name <name>', "the scenario's name (default: the HAR's file name)")
    .option('--extends <scenario>', 'the scenario it starts from', 'empty')
    .addOption(
      new Option(
        '--at <moment>',
        'start: the state before the first exchange (sending the requests again gives the recorded answers); end: where the recording stopped',
      )
        .choices(['start', 'end'])
        .default('start'),
    )
    .addOption(scenarioFile('a scenario file or folder that --extends may name'))
    .option('--seed <n>', 'seed of the scenario extended and of the factories', integer)
    .action(async (file, options) =>
      (await import('./scenario-command.ts')).runScenarioFromHar(file, options),
    )
  subcommand(
    program,
    'diff',
    'send the conformance cases and recorded examples (writes as dryRun=true; none that could change the backend unless --include-writes) to the sandbox and to a backend, and report what differs; exit code 1 on any difference, 2 when the backend cannot be reached',
  )
    .requiredOption('--target <url>', 'the backend to compare with, http(s)://host[:port][/prefix]')
    .option('--report <file.md>', 'write the full report there, as Markdown')
    .option(
      '--refresh-token <persona=token>',
      "the target's refresh token of a persona (host, admin...), to sign in there as it; repeatable",
      collect,
      [],
    )
    .option(
      '--examples <dir>',
      'also send the examples of your own examples files (what examples from-har wrote there)',
    )
    .option(
      '--operations <file>',
      'also send the examples your operations of your own declare (the sandbox serves them; so must the target)',
    )
    .option(
      '--include-writes',
      "also send the requests that could change the target's data (operations without dryRun, dryRun other than true)",
    )
    .action(async (options) =>
      (await import('./diff-command.ts')).runDiffCommand(options, startServer),
    )
  const state = subcommand(
    program,
    'state',
    'check, repair and copy a state directory (--state-dir) or Redis (--state); run them while no sandbox uses it',
  )
  const stateFiles = scenarioFile(
    'a scenario file or folder the sandbox starts with (a snapshot may descend from it)',
  )
  const stateOperations = new Option(
    '--operations <file>',
    'the file of operations of your own the sandbox starts with (their logged writes are kept)',
  )
  state
    .command('check')
    .description(
      'name every session log line a start cannot replay (<file>:<line>) and every snapshot file it cannot restore; exit code 2 on any problem',
    )
    .argument('<dir>', 'the state directory, or the Redis URL of --state')
    .addOption(stateFiles)
    .addOption(stateOperations)
    .action(async (place: string, options) =>
      /^rediss?:\/\//.test(place)
        ? (await import('./state-copy.ts')).runRedisCheck(place, options)
        : (await import('./state.ts')).runStateCheck(place, options),
    )
  state
    .command('repair')
    .description(
      'move each session log from its first bad line on into <log>.corrupt beside it (nothing is deleted) and cut torn last lines; snapshot files are only reported; exit code 2 while a problem remains',
    )
    .argument('<dir>', 'the state directory')
    .addOption(stateFiles)
    .addOption(stateOperations)
    .action(async (directory, options) =>
      (await import('./state.ts')).runStateRepair(directory, options),
    )
  state
    .command('copy')
    .description(
      "copy a state directory into Redis or back (each a directory or a redis:// URL): every session's log, saved snapshot and uploaded scenario; what <to> held of the same replaced; exit code 2 when one could not be read",
    )
    .argument('<from>', 'the state directory or Redis URL to read')
    .argument('<to>', 'the state directory or Redis URL to write')
    .action(async (from: string, to: string) =>
      (await import('./state-copy.ts')).runStateCopy(from, to),
    )
  subcommand(
    program,
    'openapi',
    'write the app document (or the merged one) with your operations in it, marked as proposed, for a client generator',
  )
    .option('--operations <file>', 'the file of operations of your own (as the server takes it)')
    .option('--merged', 'the merged document (with the control API) instead of the app document')
    .option('--out <file>', 'write it there instead of standard output')
    .action(async (options) => (await import('./openapi-command.ts')).runOpenapiCommand(options))
  subcommand(
    program,
    'propose',
    'write your operations as a proposal for the backend team: an OpenAPI Overlay 1.0 on the published contract (or, with --document, the contract with it applied); warns of each one the contract already has',
  )
    .requiredOption(
      '--operations <file>',
      'the file of operations of your own (as the server takes it)',
    )
    .option(
      '--out <file>',
      'write it there (YAML when it ends in .yaml or .yml) instead of standard output',
    )
    .option('--document', 'the published contract with the overlay applied, instead of the overlay')
    .action(async (options) => (await import('./propose-command.ts')).runProposeCommand(options))
  subcommand(
    program,
    'mcp',
    'the MCP server over stdio: starts a sandbox (4010 when free) that stops with it, or attaches to the one there, or drives --url',
  )
    .option('--url <url>', 'drive the sandbox running there (token: SANDBOX_CONTROL_TOKEN)')
    .addOption(
      new Option(
        '-p, --port <port>',
        'the port of the sandbox to start or attach to (default 4010; env SANDBOX_PORT)',
      )
        .argParser(port)
        .conflicts('url'),
    )
    .option(
      '--session <id>',
      'the session the tools act on by default (default: default)',
      (value: string) => (isValidSessionId(value) ? value : invalid(SESSION_ID_RULE)),
    )
    .option('--scenario <name>', 'the starting scenario of a sandbox it starts')
    .option(
      '--operations <file>',
      'operations of your own for a sandbox it starts, a tool each (env SANDBOX_OPERATIONS)',
    )
    // Its help goes to stdout as every command's: the protocol takes stdout only in the action.
    .action(async (options) => {
      const server = program.opts()
      // The server's SANDBOX_PORT, read before `mcp`, is as explicit as --port (not with --url).
      if (program.getOptionValueSource('port') === 'env' && !options.url)
        options.port ??= server.port
      options.operations ??= server.operations
      const { runMcpCommand } = await import('./mcp-command.ts')
      return runMcpCommand(options, server.controlToken, { startServer })
    })
}
