/**
 * @module
 * Test helper: runs `platform-sandbox` from its TypeScript sources as a child process
 * and collects what it prints.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../../cli/cli.ts', import.meta.url))

export interface CliRun {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** Resolves with the first match in standard output (or standard error). */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpExecArray>
  exited: Promise<number | null>
}

export function runCli(args: readonly string[]): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const waiting: Array<{
    pattern: RegExp
    stream: 'stdout' | 'stderr'
    resolve: (match: RegExpExecArray) => void
  }> = []
  const check = () => {
    for (const waiter of [...waiting]) {
      const match = waiter.pattern.exec(waiter.stream === 'stdout' ? out : err)
      if (match) {
        waiting.splice(waiting.indexOf(waiter), 1)
        waiter.resolve(match)
      }
    }
  }
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
    check()
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8')
    check()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, stream = 'stdout') {
      const match = pattern.exec(stream === 'stdout' ? out : err)
      if (match) return Promise.resolve(match)
      return new Promise((resolve, reject) => {
        waiting.push({ pattern, stream, resolve })
        exited.then(() => reject(new Error(`exited before printing ${pattern}: ${out}${err}`)))
      })
    },
  }
}
