/**
 * @module
 * Cold start: from spawning a process to its first 200 answer, polled as fast as
 * the connection refusals come back. Runs are interleaved between the commands so
 * that a burst of load on the machine hits them alike; the median is kept.
 */
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import type { Pinning } from './pinning.ts'

export interface ColdStartCommand {
  name: string
  script: string
  /** Given before `--port <n>`. */
  args: string[]
  /** Path polled for the first 200. */
  path: string
  /** The Node binary that runs `script`. Default: the one running the bench. */
  node?: string
}

/** The status of `GET http://127.0.0.1:<port><path>`, 0 when nothing answers. */
export function statusOf(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

/** Milliseconds from spawning `command` to its first 200; it is stopped before resolving. */
export async function coldStartOnce(
  pinning: Pinning,
  command: ColdStartCommand,
  port: number,
): Promise<number> {
  const [executable, argv] = pinning.wrap(command.node ?? process.execPath, [
    command.script,
    ...command.args,
    '--port',
    String(port),
  ])
  const started = performance.now()
  const child = spawn(executable, argv, { stdio: 'ignore' })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let early = false
  exited.then(() => {
    early = true
  })
  try {
    for (;;) {
      if ((await statusOf(port, command.path)) === 200) return performance.now() - started
      if (early) throw new Error(`Failed to cold-start ${command.name}: it exited`)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/** Milliseconds to the first 200 of each command, `runs` times each; sorted ascending. */
export async function measureColdStarts(
  pinning: Pinning,
  commands: readonly ColdStartCommand[],
  runs: number,
  port: number,
): Promise<Map<string, number[]>> {
  const times = new Map(commands.map((command) => [command.name, [] as number[]]))
  for (let run = 0; run < runs; run++) {
    for (const command of commands)
      times.get(command.name)!.push(await coldStartOnce(pinning, command, port))
  }
  for (const list of times.values()) list.sort((a, b) => a - b)
  return times
}
