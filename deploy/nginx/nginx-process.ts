/**
 * @module
 * Test helper: runs nginx in the foreground with a documented configuration (`platform-sandbox.conf`
 * by default, or `platform-sandbox-replicas.conf`),
 * pointed at given instances and a given port, from a throwaway prefix directory. Every answer
 * an instance gives through it names that instance (`x-test-upstream: 127.0.0.1:<port>`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const TEMPLATE = new URL('./platform-sandbox.conf', import.meta.url)

/** The header naming the instance that answered. */
export const UPSTREAM_HEADER = 'x-test-upstream'

/**
 * The documented configuration with its instances and listen address replaced; each instance
 * gets the parameters of the documented `server` lines (`max_fails=0`).
 */
export function renderSandboxConf(
  instances: readonly number[],
  port: number,
  file: URL = TEMPLATE,
): string {
  const template = readFileSync(file, 'utf8')
  const parameters = /^[ \t]*server [^\s{;]+( [^;{]*)?;/m.exec(template)?.[1] ?? ''
  const servers = instances
    .map((instance) => `    server 127.0.0.1:${instance}${parameters};`)
    .join('\n')
  const rendered = template
    .replace(/(# instances:[^\n]*\n(?:\s*#[^\n]*\n)*)(?:\s*server [^\n]+\n)+/, `$1${servers}\n`)
    .replace(/listen [^;]+;/, `listen 127.0.0.1:${port};`)
  if (!rendered.includes(servers) || !rendered.includes(`listen 127.0.0.1:${port};`)) {
    throw new Error('Failed to render platform-sandbox.conf: its upstream or listen lines moved')
  }
  return rendered
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

export interface RunningNginx {
  url: string
  stop(): Promise<void>
}

/** Starts `nginx` with `file` (the sticky `platform-sandbox.conf` unless given) in front of `instances`. */
export async function startNginx(
  nginx: string,
  instances: readonly number[],
  file: URL = TEMPLATE,
): Promise<RunningNginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'sandbox-nginx-'))
  const port = await freePort()
  writeFileSync(join(prefix, 'platform-sandbox.conf'), renderSandboxConf(instances, port, file))
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      // One process, no workers: nothing changes user, everything stays in the prefix.
      'daemon off;',
      'master_process off;',
      `pid ${join(prefix, 'nginx.pid')};`,
      `error_log ${join(prefix, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      // Inherited by the documented `location /`, which adds no header of its own.
      `  add_header ${UPSTREAM_HEADER} $upstream_addr always;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (name) => `  ${name}_temp_path ${join(prefix, `${name}_temp`)};`,
      ),
      `  include ${join(prefix, 'platform-sandbox.conf')};`,
      '}',
    ].join('\n'),
  )
  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stderr?.on('data', (data: Buffer) => {
    output += data.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    rmSync(prefix, { recursive: true, force: true })
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break
    try {
      await fetch(`${url}/__sandbox/health`)
      return { url, stop }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await stop()
  throw new Error(`Failed to start nginx (${nginx}): ${output || 'no answer within 5 s'}`)
}
