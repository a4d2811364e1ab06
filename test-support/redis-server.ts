/**
 * @module
 * Debian's `redis-server` as this test's own process (never the system service): on a free
 * port of 127.0.0.1, its data in a temporary folder, stopped by its PID. `startRedis()` for a
 * throwaway one (no persistence); `{ appendonly: true }` with `appendfsync always`, so that a
 * `kill()` then `restart()` keeps every write it acknowledged.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const REDIS_SERVER = '/usr/bin/redis-server'

export interface TestRedis {
  /** `redis://127.0.0.1:<port>/0`. */
  url: string
  port: number
  /** The running process's PID. */
  pid(): number
  /** `kill -9`: what it acknowledged is in its append-only file, with `appendonly`. */
  kill(): Promise<void>
  /** Starts it again on the same port and folder. */
  restart(): Promise<void>
  /** Stops it and removes its folder. */
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}

/** Starts the process and resolves once it accepts connections. */
function launch(port: number, dir: string, appendonly: boolean): Promise<ChildProcess> {
  const persistence = appendonly
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no']
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir]
  const child = spawn(REDIS_SERVER, [...args, ...persistence], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (data: string) => {
      output += data
      if (output.includes('Ready to accept connections')) resolve(child)
    })
    child.stderr!.setEncoding('utf8').on('data', (data: string) => {
      output += data
    })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)))
  })
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill(signal)
  return exit
}

export async function startRedis({ appendonly = false } = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-redis-'))
  let port = await freePort()
  let child: ChildProcess
  try {
    child = await launch(port, dir, appendonly)
  } catch {
    // Taken between the probe and the start: once more on another port.
    port = await freePort()
    child = await launch(port, dir, appendonly)
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    pid: () => child.pid!,
    kill: () => ended(child, 'SIGKILL'),
    async restart() {
      child = await launch(port, dir, appendonly)
    },
    async stop() {
      await ended(child, 'SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
