/**
 * @module
 * What a bench run measures with: load settings, rounds and counts (each from its
 * `BENCH_*` environment variable, for quick runs), and the servers compared over HTTP.
 */
import { fileURLToPath } from 'node:url'
import type { LoadSettings } from './load.ts'

/** A path relative to `bench/`. */
export const benchPath = (relative: string) =>
  fileURLToPath(new URL(`../${relative}`, import.meta.url))

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

export const load: LoadSettings = {
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  durationSeconds: numberFromEnv('BENCH_DURATION', 5),
  warmupSeconds: numberFromEnv('BENCH_WARMUP', 1),
}
/**
 * Alternating rounds of each load figure, the best run of each side kept. Four, not two: on a
 * shared 2-core machine one server swung from 2,500 to 9,100 req/s between rounds, and with two
 * a single good round of one side moved a ratio by 30%.
 */
export const loadRounds = numberFromEnv('BENCH_ROUNDS', 4)
export const coldStartRuns = numberFromEnv('BENCH_COLD_RUNS', 9)
/** Runs of each side of the container start figure (`podman run` and the bare CLI). */
export const containerRuns = numberFromEnv('BENCH_CONTAINER_RUNS', 5)
export const sessionCount = 1000
export const recordRequests = numberFromEnv('BENCH_RECORD_REQUESTS', 5000)
/** Alternating rounds of the two proxies; the median round of each is compared. */
export const recordRounds = numberFromEnv('BENCH_RECORD_ROUNDS', 7)

/** The servers of the HTTP figures: two bare baselines and the sandbox's CLI bundle. */
export const servers = {
  'node:http': { script: benchPath('./servers/bare-http.mjs'), args: [] as string[] },
  express: { script: benchPath('./servers/bare-express.mjs'), args: [] as string[] },
  sandbox: {
    script: benchPath('../bin/platform-sandbox.mjs'),
    args: ['--port', '0', '--quiet'],
  },
}
export type ServerName = keyof typeof servers
