/**
 * The MCP Inspector (`@modelcontextprotocol/inspector`), a third-party client, installed
 * once beside the Node 24 the consumer legs install (its releases need Node 22.19 or later),
 * outside the repository: `$CONSUMER_NODE24_DIR/../mcp-inspector`, by default
 * `~/.cache/platform-sandbox-consumer/mcp-inspector`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { installNode24 } from '../../consumer/legs.mjs'

const INSPECTOR_RANGE = '~2.12'

function cacheFolder(): string {
  return process.env.CONSUMER_NODE24_DIR
    ? join(dirname(process.env.CONSUMER_NODE24_DIR), 'mcp-inspector')
    : join(
        process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
        'platform-sandbox-consumer',
        'mcp-inspector',
      )
}

/** Node 24's binary and the Inspector's command-line entry, installed when missing. */
export async function installInspector(
  log: (line: string) => void,
): Promise<{ node: string; cli: string }> {
  const node = join(await installNode24(log), 'node')
  const folder = cacheFolder()
  const cli = join(
    folder,
    'node_modules',
    '@modelcontextprotocol',
    'inspector',
    'clients',
    'launcher',
    'build',
    'index.js',
  )
  if (!existsSync(cli)) {
    log(`installing @modelcontextprotocol/inspector@${INSPECTOR_RANGE} into ${folder}`)
    await promisify(execFile)(
      'npm',
      [
        'install',
        `@modelcontextprotocol/inspector@${INSPECTOR_RANGE}`,
        '--prefix',
        folder,
        '--no-save',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: homedir(), timeout: 300_000 },
    )
  }
  return { node, cli }
}

/** Runs the Inspector's `--cli` mode; resolves to its standard output. */
export async function runInspector(
  inspector: { node: string; cli: string },
  args: readonly string[],
): Promise<string> {
  const { stdout } = await promisify(execFile)(inspector.node, [inspector.cli, '--cli', ...args], {
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout
}
