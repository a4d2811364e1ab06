/**
 * @module
 * The container image (built from the repository's Dockerfile with Podman, see
 * `deploy/container/podman.ts`): from `podman run` to the first 200 of
 * `GET /__sandbox/health`, beside the bare CLI's cold start on the same Node 24, runs
 * alternating; and what the image adds to its base. Skipped, with one line, where Podman
 * cannot run.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { installNode24 } from '../../consumer/legs.mjs'
import {
  buildImage,
  ensureBaseImage,
  imageSize,
  podman,
  ULIMITS,
  unavailableReason,
} from '../../deploy/container/podman.ts'
import { coldStartOnce, statusOf } from './cold-start.ts'
import type { Pinning } from './pinning.ts'
import type { Figure } from './report.ts'
import { servers } from './settings.ts'
import { median } from './stats.ts'

// Re-based from 25 MB by "A team sandbox on Redis": the Redis client and the metrics.
const MAX_ADDED_MB = 27

/** What Podman itself costs: a bare `node:http` server, run in the base image the same way. */
const BARE_SERVER = [
  '--entrypoint',
  'node',
  'BASE',
  '-e',
  "require('node:http').createServer((req, res) => res.end('{}')).listen(4010, '0.0.0.0')",
]

/**
 * Milliseconds from starting `podman run` to the container's first 200 on `path`; `run` is
 * the image and what follows it.
 */
async function containerStartOnce(
  pinning: Pinning,
  run: readonly string[],
  path: string,
  port: number,
): Promise<number> {
  const [executable, argv] = pinning.wrap('podman', [
    '--runtime',
    'runc',
    'run',
    '-d',
    ...ULIMITS,
    '--health-interval=disable',
    '-p',
    `127.0.0.1:${port}:4010`,
    ...run,
  ])
  const started = performance.now()
  const child = spawn(executable, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
  let id = ''
  child.stdout.setEncoding('utf8').on('data', (data: string) => {
    id += data
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let failed = false
  exited.then((code) => {
    if (code !== 0) failed = true
  })
  try {
    for (;;) {
      if ((await statusOf(port, path)) === 200) return performance.now() - started
      if (failed) throw new Error('Failed to start the container: podman run failed')
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  } finally {
    await exited
    if (id.trim()) await podman(['rm', '--force', '--time', '5', id.trim()])
  }
}

/**
 * The container figures: start time (median of `runs`, after one warm-up of each side) and
 * size added to the base. Builds the image, and removes it after.
 */
export async function measureContainer(
  pinning: Pinning,
  log: (line: string) => void,
  runs: number,
  port: number,
): Promise<Figure[]> {
  const unavailable = unavailableReason()
  if (unavailable) {
    log(`Container figures skipped: ${unavailable}`)
    return []
  }
  const base = await ensureBaseImage(log)
  log(`Building the image on ${base}...`)
  const image = await buildImage(base)
  try {
    const node = join(await installNode24(log), 'node')
    const bare = {
      ...servers.sandbox,
      name: 'sandbox',
      args: ['--quiet'],
      path: '/__sandbox/health',
      node,
    }
    const container: number[] = []
    const cli: number[] = []
    const bareInBase: number[] = []
    const bareServer = BARE_SERVER.map((arg) => (arg === 'BASE' ? base : arg))
    log(
      `Container start, bare CLI cold start, bare server in the base: ${runs} runs each (after one warm-up)...`,
    )
    for (let round = 0; round <= runs; round++) {
      const cliMs = await coldStartOnce(pinning, bare, port)
      const containerMs = await containerStartOnce(pinning, [image], '/__sandbox/health', port)
      const bareInBaseMs = await containerStartOnce(pinning, bareServer, '/', port)
      if (round === 0) continue
      cli.push(cliMs)
      container.push(containerMs)
      bareInBase.push(bareInBaseMs)
    }
    const addedMb = ((await imageSize(image)) - (await imageSize(base))) / 1e6
    return [
      {
        group: 'container image',
        name: '`podman run` to first 200 on /__sandbox/health, median',
        value: median(container),
        unit: 'ms',
        baselineName: 'bare CLI cold start, same Node 24',
        baseline: median(cli),
        goal: { kind: 'max', ratio: 2 },
        note: `${runs} runs each, alternating; Podman 4 with runc`,
      },
      {
        group: 'container image',
        name: '`podman run` to first 200 on /__sandbox/health, median',
        value: median(container),
        unit: 'ms',
        baselineName: 'the same for a bare node:http server in the base',
        baseline: median(bareInBase),
        note: 'what Podman itself costs is in both',
      },
      {
        group: 'container image',
        name: 'size added to the base image',
        value: addedMb,
        unit: 'MB',
        baselineName: 'budget',
        baseline: MAX_ADDED_MB,
        goal: { kind: 'max', ratio: 1 },
        note: `base: ${base.replace(/^localhost\//, '')}`,
      },
    ]
  } finally {
    await podman(['rmi', image])
  }
}
