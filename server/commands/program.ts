/**
 * @module
 * The subcommands of `platform-sandbox`: the recorded-traffic ones (`record`, `examples
 * from-har`, `scenario from-har` and `diff`) and the state directory's (`state check`,
 * `state repair`). Bad input ends them with a one-line message and exit code 2.
 */
import { Command, Option } from 'commander'
import { DEFAULT_HOST } from '../options.ts'
import { type DiffOptions, runDiffCommand } from './diff-command.ts'
import { runExamplesFromHar } from './examples-command.ts'
import { USAGE_EXIT_CODE, UsageError } from './input.ts'
import { runRecordCommand } from './record-command.ts'
import { runScenarioFromHar, type ScenarioFromHarCommandOptions } from './scenario-command.ts'
import { runStateCheck, runStateRepair, type StateCommandOptions } from './state-command.ts'

function collect(value: string, previous: string[] | boolean | undefined): string[] {
  return [...(Array.isArray(previous) ? previous : []), value]
}

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`"${value}" is not a non-negative integer`)
  return Number(value)
}

/** The subcommands, each running its action when parsed. */
export function createCommandsProgram(): Command {
  const program = new Command('platform-sandbox')
    .helpOption('-h, --help', 'show this help')
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE)
    })
  program
    .command('record')
    .description('record a backend: a proxy that writes every exchange to a HAR file')
    .requiredOption('--target <url>', 'the backend to record, http(s)://host[:port][/prefix]')
    .option('--out <file.har>', 'the HAR file to append to', 'recording.har')
    .addOption(
      new Option('-p, --port <port>', 'port to listen on, 0 for any')
        .default(4011)
        .argParser(integer),
    )
    .option('--host <host>', 'interface to listen on', DEFAULT_HOST)
    .option(
      '--redact <header-or-pointer>',
      'also redact this header, or this JSON pointer (/a/b) in bodies; repeatable',
      collect,
    )
    .option('--no-redact', 'keep tokens, cookies and passwords in the file')
    .addOption(
      new Option('--timeout <ms>', 'longest wait for the target')
        .default(30_000)
        .argParser(integer),
    )
    .action(
      (options: {
        target: string
        out: string
        port: number
        host: string
        redact?: boolean | string[]
        timeout: number
      }) => runRecordCommand({ ...options, redact: options.redact ?? true }),
    )
  program
    .command('examples')
    .description('recorded exchanges and the examples of spec/examples')
    .command('from-har')
    .description('add the exchanges of a HAR file to the <operationId>.json example files')
    .argument('<file.har>', 'the recording')
    .option('--operation <operationId>', 'only the exchanges of this operation')
    .option('--out-dir <dir>', 'folder of the example files', 'spec/examples')
    .action((file: string, options: { operation?: string; outDir: string }) =>
      runExamplesFromHar(file, options),
    )
  program
    .command('scenario')
    .description('scenarios learned from recorded traffic')
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
    .option(
      '--scenario-file <path>',
      'a scenario file or folder that --extends may name; repeatable',
      collect,
    )
    .addOption(
      new Option('--seed <n>', 'seed of the scenario extended and of the factories').argParser(
        integer,
      ),
    )
    .action((file: string, options: ScenarioFromHarCommandOptions) =>
      runScenarioFromHar(file, options),
    )
  program
    .command('diff')
    .description(
      'send the conformance cases and recorded examples (writes as dryRun=true; none that could change the backend unless --include-writes) to the sandbox and to a backend, and report what differs; exit code 1 on any difference',
    )
    .requiredOption('--target <url>', 'the backend to compare with, http(s)://host[:port][/prefix]')
    .option('--report <file.md>', 'write the full report there, as Markdown')
    .option(
      '--refresh-token <persona=token>',
      "the target's refresh token of a persona (host, admin...), to sign in there as it; repeatable",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--examples <dir>',
      'also send the examples of your own examples files (what examples from-har wrote there)',
    )
    .option(
      '--include-writes',
      "also send the requests that could change the target's data (operations without dryRun, dryRun other than true)",
    )
    .action((options: DiffOptions) => runDiffCommand(options))
  const state = program
    .command('state')
    .description(
      'check and repair a state directory (--state-dir); run them while no sandbox uses it',
    )
  state
    .command('check')
    .description(
      'name every session log line a start cannot replay (<file>:<line>) and every snapshot file it cannot restore; exit code 2 on any problem',
    )
    .argument('<dir>', 'the state directory')
    .option(
      '--scenario-file <path>',
      'a scenario file or folder the sandbox starts with (a snapshot may descend from it); repeatable',
      collect,
    )
    .action((directory: string, options: StateCommandOptions) => runStateCheck(directory, options))
  state
    .command('repair')
    .description(
      'move each session log from its first bad line on into <log>.corrupt beside it (nothing is deleted) and cut torn last lines; snapshot files are only reported; exit code 2 while a problem remains',
    )
    .argument('<dir>', 'the state directory')
    .option(
      '--scenario-file <path>',
      'a scenario file or folder the sandbox starts with (a snapshot may descend from it); repeatable',
      collect,
    )
    .action((directory: string, options: StateCommandOptions) => runStateRepair(directory, options))
  return program
}

/** Runs a subcommand with `args` (without `node` and the script). */
export async function runSubcommand(args: readonly string[]): Promise<void> {
  try {
    await createCommandsProgram().parseAsync(args, { from: 'user' })
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`platform-sandbox: ${error.message}`)
    process.exit(USAGE_EXIT_CODE)
  }
}

export { isSubcommand, SUBCOMMANDS } from './subcommands.ts'
