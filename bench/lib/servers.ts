/**
 * @module
 * Starts a server under test as a child process and waits for the URL it prints.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { Pinning } from './pinning.ts'

export interface ChildServer {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** Spawns `node script args` (pinned) and resolves once it prints `listening on <url>`. */
export function startChildServer(
  pinning: Pinning,
  script: string,
  args: string[] = [],
): Promise<ChildServer> {
  const [command, argv] = pinning.wrap(process.execPath, [script, ...args])
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString('utf8')
      const match = /listening on (http:\/\/[^\s]+)/.exec(output)
      if (match) {
        child.stdout?.off('data', onData)
        child.stdout?.resume()
        resolve({ url: match[1]!, child, stop })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (data: Buffer) => {
      output += data.toString('utf8')
    })
    child.once('exit', (code) =>
      reject(new Error(`Failed to start ${script}: exited with ${code}\n${output}`)),
    )
  })
}
