/**
 * @module
 * Starts Stoplight Prism (the pinned `@stoplight/prism-cli`) as a child process, as a mock
 * server or as a validating proxy, on a free port, and waits until it answers HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { trackChild } from './child-processes.ts'
import { findFreePort } from './free-port.ts'

export interface PrismOptions {
  /** `proxy` forwards to `upstream` and validates both ways; `mock` answers from the document. */
  mode: 'proxy' | 'mock'
  /** Path of the OpenAPI document. */
  document: string
  /** Where a proxy forwards to, e.g. the sandbox's `http://127.0.0.1:41234`. */
  upstream?: string
  /** `--errors`: a violation becomes an error answer instead of a log line. Default `true`. */
  errors?: boolean
  /** `--validate-request` of a proxy. Default `true`. */
  validateRequest?: boolean
  /** Default `127.0.0.1`. */
  host?: string
  /** Default: a free port. */
  port?: number
  /** How long Prism may take to answer its first request. Default 30 s. */
  startupTimeoutMs?: number
  /** A name for messages, e.g. `published contract, validating proxy`. */
  label?: string
  /** The Prism CLI script. Default: the installed `@stoplight/prism-cli`. */
  cli?: string
}

export interface RunningPrism {
  /** `http://127.0.0.1:<port>`. */
  url: string
  label: string
  pid: number
  /** The last lines Prism printed (standard output and error). */
  output(): string
  /** Stops Prism (SIGTERM, then SIGKILL after 3 s) and resolves once it has exited. */
  stop(): Promise<void>
}

/** Prism could not start; the message says why and ends with what it printed. */
export class PrismStartError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PrismStartError'
  }
}

const OUTPUT_LIMIT = 16 * 1024
const POLL_INTERVAL_MS = 100
const STOP_GRACE_MS = 3_000

/** The Prism CLI script: `cli` if given, else the installed `@stoplight/prism-cli`'s. */
export function resolvePrismCli(cli?: string): string {
  let script = cli
  if (script === undefined) {
    try {
      script = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js')
    } catch {
      throw new PrismStartError(
        'Failed to start Prism: @stoplight/prism-cli is not installed (a devDependency, pinned to 5.14.2); run `npm install`',
      )
    }
  }
  if (!existsSync(script)) {
    throw new PrismStartError(
      `Failed to start Prism: the Prism CLI ${script} does not exist; run \`npm install\``,
    )
  }
  return script
}

/**
 * Starts Prism and resolves once it answers HTTP on its port. Rejects with a
 * `PrismStartError` (naming the cause and quoting Prism's output) when the CLI is missing,
 * the document cannot be read, the port is taken (after two more free ports), or Prism does
 * not answer within `startupTimeoutMs`.
 *
 * @example
 * const prism = await startPrism({ mode: 'proxy', document: 'spec/platform-api.openapi.yaml', upstream: sandbox.url })
 * try {
 *   await fetch(`${prism.url}/payprov/account-status`, { headers: { authorization } })
 * } finally {
 *   await prism.stop()
 * }
 */
export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const cli = resolvePrismCli(options.cli)
  if (!existsSync(options.document)) {
    throw new PrismStartError(`Failed to start Prism: no document at ${options.document}`)
  }
  if (options.mode === 'proxy' && !options.upstream) {
    throw new PrismStartError('Failed to start Prism: a proxy needs an upstream URL')
  }
  const attempts = options.port === undefined ? 3 : 1
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(cli, options)
    } catch (error) {
      const portTaken = error instanceof PrismStartError && error.message.includes('EADDRINUSE')
      if (!portTaken || attempt >= attempts) throw error
    }
  }
}

async function startOnce(cli: string, options: PrismOptions): Promise<RunningPrism> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? (await findFreePort(host))
  const url = `http://${host}:${port}`
  const label = options.label ?? `prism ${options.mode} ${options.document}`
  const args = [cli, options.mode, options.document]
  if (options.mode === 'proxy') args.push(options.upstream!)
  args.push('--port', String(port), '--host', host)
  if (options.errors ?? true) args.push('--errors')
  if (options.mode === 'proxy' && options.validateRequest === false) {
    args.push('--validate-request=false')
  }

  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
  trackChild(child)
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  const tail = () => output.trim().split('\n').slice(-15).join('\n')

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(timer)
    }
  }

  try {
    await waitUntilAnswering(url, child, options.startupTimeoutMs ?? 30_000)
  } catch (error) {
    await stop()
    const reason = error instanceof Error ? error.message : String(error)
    throw new PrismStartError(
      `Failed to start Prism (${label}) on ${url}: ${reason}\n--- Prism output ---\n${tail() || '(none)'}`,
    )
  }
  return { url, label, pid: child.pid ?? -1, output: () => output, stop }
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  let exitCode: number | string | null = null
  child.once('exit', (code, signal) => {
    exitCode = code ?? signal
  })
  for (;;) {
    if (exitCode !== null || child.exitCode !== null) {
      throw new Error(`Prism exited with ${exitCode ?? child.exitCode} before it was ready`)
    }
    try {
      // Any HTTP answer (Prism says 404 for an unknown path) means it listens.
      const response = await fetch(`${url}/__prism-ready`, { signal: AbortSignal.timeout(1_000) })
      await response.body?.cancel()
      return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(`Prism did not answer within ${timeoutMs} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
  }
}
