/**
 * @module
 * The `platform-sandbox` command as a child process, for tests that need a real process
 * (a restart, a `kill -9`, an exit code): started on a free port, with its output kept.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const bin = fileURLToPath(new URL('../../bin/platform-sandbox.mjs', import.meta.url))

export interface CliExit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface TestCli {
  child: ChildProcess
  /** Where it listens, once its banner says so; rejects if it exits before. */
  url: Promise<string>
  /** How it ended, with everything it printed. */
  exited: Promise<CliExit>
  /** What it printed on standard error so far. */
  stderr(): string
  /** Sends SIGTERM unless it has ended, and resolves once it has. */
  stop(): Promise<CliExit>
}

/** Runs `platform-sandbox ...args` (a subcommand) to its end. */
export function runTestCommand(args: readonly string[]): Promise<CliExit> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (data: string) => {
    stdout += data
  })
  child.stderr!.setEncoding('utf8').on('data', (data: string) => {
    stderr += data
  })
  return new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
}

/** Starts `platform-sandbox --port 0 --quiet ...args` (no port from the environment). */
export function startTestCli(
  args: readonly string[],
  { cwd, node = process.execPath }: { cwd?: string; node?: string } = {},
): TestCli {
  const child = spawn(node, [bin, '--port', '0', '--quiet', ...args], {
    cwd,
    env: { ...process.env, SANDBOX_PORT: '', PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (data: string) => {
    stderr += data
  })
  const exited = new Promise<CliExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (data: string) => {
      stdout += data
      const match = /listening on (http:\/\/localhost:\d+)/.exec(stdout)
      if (match) resolve(match[1]!)
    })
    exited.then(({ code }) => reject(new Error(`exited with ${code}:\n${stdout}${stderr}`)))
  })
  // A test that expects the command to fail never waits for its URL.
  url.catch(() => {})
  return {
    child,
    url,
    exited,
    stderr: () => stderr,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}
