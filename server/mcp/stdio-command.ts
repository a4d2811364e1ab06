/**
 * @module
 * `platform-sandbox mcp`, over stdio: drives the sandbox at `--url`, or the one answering on 4010
 * (or `--port`), or starts one there (else on any port) and prints its URL on stderr (stdout is
 * the protocol's).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { browserUrl } from '../banner.ts'
import { withoutTrailingSlashes } from '../exposure.ts'
import { DEFAULT_PORT, type ServerOptions } from '../options.ts'
import type { RunningServer } from '../start-server.ts'
import { createHttpBackend, createInProcessBackend, type SandboxBackend } from './backend.ts'
import { createMcpServer } from './create-mcp-server.ts'
import { remoteOperations } from './remote-operations.ts'

/** The options of `platform-sandbox mcp`, parsed by the program (`commands/program.ts`). */
export interface McpCommandOptions {
  url?: string
  port?: number
  session?: string
  scenario?: string
  /** `--operations <file>`: operations of your own for the sandbox it starts. */
  operations?: string
}

/** Given by the CLI, so that this module holds none of the server. */
export interface McpCommandDeps {
  startServer(options: ServerOptions): Promise<RunningServer>
}

function say(line: string): void {
  process.stderr.write(`platform-sandbox mcp: ${line}\n`)
}

/** Said by the sandbox this command starts (its health check, the tools) and on its start. */
const LIFETIME =
  'started by `platform-sandbox mcp` over stdio, stops when the MCP client that started it disconnects; for a sandbox shared by an app and several agents, run `npx platform-sandbox` (or the container) and attach with `platform-sandbox mcp --url`'

/** The health check of the sandbox at `url`, if one answers it. */
async function health(url: string): Promise<{ lifetime?: string } | undefined> {
  try {
    const response = await fetch(`${url}/__sandbox/health`, { signal: AbortSignal.timeout(1500) })
    const body = (await response.json()) as { status?: unknown; lifetime?: string }
    return response.ok && body.status === 'ok' ? body : undefined
  } catch {
    return undefined
  }
}

/** The sandbox to drive: the one at `--url`, the one answering on the port, or a new one. */
async function sandboxToDrive(
  options: McpCommandOptions,
  controlToken: string | undefined,
  deps: McpCommandDeps,
): Promise<{ backend: SandboxBackend; running?: RunningServer }> {
  if (options.url !== undefined) {
    say(`driving the sandbox at ${options.url}`)
    // An agent's client starts this command with its own session, maybe before the sandbox.
    if (!(await health(withoutTrailingSlashes(options.url))))
      say(`no sandbox answers at ${options.url} yet: the tools fail until one does`)
    return { backend: createHttpBackend(options.url, controlToken) }
  }
  const wanted = options.port ?? DEFAULT_PORT
  const url = `http://127.0.0.1:${wanted}`
  const answered = wanted === 0 ? undefined : await health(url)
  if (answered) {
    say(`attached to the sandbox already running at ${browserUrl(url)}`)
    if (answered.lifetime) say(`that sandbox, ${answered.lifetime}`)
    return { backend: createHttpBackend(browserUrl(url), controlToken) }
  }
  const own =
    options.operations === undefined
      ? undefined
      : await (await import('../operations-file.ts')).readOperations(options.operations)
  const start = (at: number) =>
    deps.startServer({
      port: at,
      host: '127.0.0.1',
      quiet: true,
      closeTimeoutMs: 2_000,
      lifetime: LIFETIME,
      ...(controlToken === undefined ? {} : { controlToken }),
      ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
      ...(own === undefined ? {} : { operations: own }),
    })
  let running: RunningServer
  try {
    running = await start(wanted)
  } catch (error) {
    // Taken by something that is not a sandbox: any free port, unless --port said which.
    const code = (error as NodeJS.ErrnoException | undefined)?.code
    if (code !== 'EADDRINUSE' || options.port !== undefined) throw error
    running = await start(0)
  }
  // `localhost`, as the server's banner says: the app's sign-in cookie then reaches it.
  const shown = browserUrl(running.url)
  say(`sandbox on ${shown} (point the app there; the dashboard: ${shown}/__sandbox/)`)
  say(`this sandbox, ${LIFETIME}`)
  return {
    backend: createInProcessBackend(running.sandbox, { url: shown, controlToken }),
    running,
  }
}

/** Runs `platform-sandbox mcp`; `controlToken` is the server's (`SANDBOX_CONTROL_TOKEN`). */
export async function runMcpCommand(
  options: McpCommandOptions,
  controlToken: string | undefined,
  deps: McpCommandDeps,
): Promise<void> {
  const driven = await sandboxToDrive(options, controlToken, deps).catch((error: unknown) => {
    say(`failed to start the sandbox: ${error instanceof Error ? error.message : String(error)}`)
    return process.exit(1)
  })
  const server = createMcpServer({
    backend: driven.backend,
    session: options.session,
    // Over HTTP, those the sandbox's document lists: the same tools as in process.
    operations: driven.running?.sandbox.operations ?? (() => remoteOperations(driven.backend)),
  })
  const transport = new StdioServerTransport()
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await server.close().catch(() => undefined)
    await driven.running?.close().catch(() => undefined)
    process.exit(0)
  }
  transport.onclose = () => void stop()
  process.stdin.once('end', () => void stop())
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
  await server.connect(transport)
}
