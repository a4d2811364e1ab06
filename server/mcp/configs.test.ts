/**
 * The client configs of the guide (`docs/agents/mcp.md`), for clients that cannot run here
 * (Claude Code, Cursor, VS Code): each is parsed and launched exactly as it says through the
 * SDK's client (`npx platform-sandbox` in a project that has the package installed), and an
 * agent configured from it does the walk. The one stand-in: the port 4010 becomes the test
 * server's, and a stdio server that starts its sandbox is given a free port in
 * `SANDBOX_PORT` rather than taking 4010 on a shared machine.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalk, call, ROOT } from '../../test-support/mcp/test-mcp.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'

const guide = readFileSync(join(ROOT, 'docs', 'agents', 'mcp.md'), 'utf8')
const TOKEN = 'guide-token'

/** The fenced block after each `<!-- config: name -->`. */
function configs(): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of guide.matchAll(/<!-- config: ([\w-]+) -->\n```\w+\n([\s\S]*?)\n```/g)) {
    found.set(match[1]!, match[2]!)
  }
  return found
}

/** What a client launches or reaches, as its config says. */
type Launch =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { kind: 'http'; url: string; headers: Record<string, string> }

/** Splits a shell command line: words, double-quoted strings. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!)
}

/** `claude mcp add [--transport http] <name> <url> [--header "k: v"]... [-- command args]`. */
function parseClaudeCommand(line: string, env: Record<string, string>): Launch {
  const expanded = line.replace(/\$\{(\w+)\}/g, (_, name: string) => env[name] ?? '')
  const [claude, mcp, add, ...rest] = words(expanded)
  expect([claude, mcp, add]).toEqual(['claude', 'mcp', 'add'])
  const dashes = rest.indexOf('--')
  if (dashes !== -1) {
    const [command, ...args] = rest.slice(dashes + 1)
    return { kind: 'stdio', command: command!, args, env: {} }
  }
  const headers: Record<string, string> = {}
  const positional: string[] = []
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index]!
    if (word === '--transport') expect(rest[++index]).toBe('http')
    else if (word === '--header') {
      const [name, ...value] = rest[++index]!.split(':')
      headers[name!.trim()] = value.join(':').trim()
    } else positional.push(word)
  }
  expect(positional).toHaveLength(2)
  return { kind: 'http', url: positional[1]!, headers }
}

/** A `.cursor/mcp.json` or `.vscode/mcp.json`, `${env:NAME}` expanded. */
function parseJsonConfig(text: string, env: Record<string, string>): Launch {
  const expanded = text.replace(/\$\{env:(\w+)\}/g, (_, name: string) => env[name] ?? '')
  const config = JSON.parse(expanded) as {
    mcpServers?: Record<string, ServerConfig>
    servers?: Record<string, ServerConfig>
  }
  const server = (config.mcpServers ?? config.servers)?.['platform-sandbox']
  expect(server).toBeDefined()
  if (server!.url !== undefined) {
    if (server!.type !== undefined) expect(server!.type).toBe('http')
    return { kind: 'http', url: server!.url, headers: server!.headers ?? {} }
  }
  if (server!.type !== undefined) expect(server!.type).toBe('stdio')
  return {
    kind: 'stdio',
    command: server!.command!,
    args: server!.args ?? [],
    env: server!.env ?? {},
  }
}

interface ServerConfig {
  type?: string
  command?: string
  args?: string[]
  env?: Record<string, string>
  url?: string
  headers?: Record<string, string>
}

let project: string
let open: TestServer
let guarded: TestServer
const clients: Client[] = []

beforeAll(async () => {
  // A project that has the package installed, as a user's: `npx platform-sandbox` runs its bin.
  project = mkdtempSync(join(tmpdir(), 'platform-sandbox-mcp-configs-'))
  writeFileSync(join(project, 'package.json'), '{ "name": "app", "private": true }\n')
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
  symlinkSync(ROOT, join(project, 'node_modules', 'platform-sandbox'))
  symlinkSync(
    '../platform-sandbox/bin/platform-sandbox.mjs',
    join(project, 'node_modules', '.bin', 'platform-sandbox'),
  )
  open = await startTestServer()
  guarded = await startTestServer({ controlToken: TOKEN })
})
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined)
  await open?.close()
  await guarded?.close()
  rmSync(project, { recursive: true, force: true })
})

/** The test server that stands for the one at 4010: the guarded one when a token is sent. */
function serverFor(launch: Launch): TestServer {
  const text = JSON.stringify(launch)
  return text.includes(TOKEN) ? guarded : open
}

async function connect(launch: Launch): Promise<Client> {
  const client = new Client({ name: 'guide-config', version: '1.0.0' })
  clients.push(client)
  const port = String(serverFor(launch).port)
  if (launch.kind === 'http') {
    const url = launch.url.replace('localhost:4010', `localhost:${port}`)
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: launch.headers } }),
    )
    return client
  }
  const args = launch.args.map((arg) => arg.replace('localhost:4010', `localhost:${port}`))
  // A sandbox it starts gets a port of its own, never 4010 on a shared machine.
  const free = await startTestServer()
  const freePort = String(free.port)
  await free.close()
  await client.connect(
    new StdioClientTransport({
      command: launch.command,
      args,
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SANDBOX_PORT: freePort,
        ...launch.env,
      },
      stderr: 'ignore',
    }),
  )
  return client
}

describe('the client configs of the guide', () => {
  const found = configs()
  const env = { SANDBOX_CONTROL_TOKEN: TOKEN }

  it('has one for each client and each way in', () => {
    expect([...found.keys()].sort()).toEqual([
      'claude-http',
      'claude-http-token',
      'claude-stdio',
      'cursor-http',
      'cursor-stdio',
      'vscode-http',
      'vscode-stdio',
    ])
  })

  for (const [name, text] of found) {
    it(`${name}: launches as written, and an agent walks through it`, async () => {
      const launch = name.startsWith('claude')
        ? parseClaudeCommand(text, env)
        : parseJsonConfig(text, env)
      if (launch.kind === 'stdio') expect(launch.command).toBe('npx')
      const client = await connect(launch)
      expect((await client.listTools()).tools).toHaveLength(32)
      const { session } = await call<{ session: string }>(client, 'getSession')
      expect(session).toBe(
        launch.kind === 'http' ? (launch.headers['x-sandbox-session'] ?? 'default') : 'default',
      )
      await agentWalk(client)
    }, 60_000)
  }
})
