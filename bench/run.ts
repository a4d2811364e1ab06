/**
 * @module
 * `npm run bench`: every figure of the sandbox beside a baseline measured in the
 * same run, as a ratio. See bench/README.md for what is measured and how to read it.
 */
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createSandboxClient } from '../mocks/testing/sandbox-client.ts'
import { measureColdStarts } from './lib/cold-start.ts'
import {
  loadSandbox,
  measureLookup,
  measureReset,
  measureSessions,
  type SessionFigures,
} from './lib/in-process.ts'
import { type JournalStreamFigures, measureJournalStream } from './lib/journal-stream.ts'
import { type LoadResult, type LoadSettings, type LoadTarget, measureLoad } from './lib/load.ts'
import { measurePackageCosts } from './lib/package-costs.ts'
import { setUpPinning } from './lib/pinning.ts'
import { measureRecording, measureReplay } from './lib/recording.ts'
import {
  type BenchReport,
  type Figure,
  formatLine,
  toMarkdown,
  updateReadme,
  withRatios,
} from './lib/report.ts'
import { measureSnapshotReset, measureValidation } from './lib/scenario-files.ts'
import { startChildServer } from './lib/servers.ts'
import { median } from './lib/stats.ts'

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

const load: LoadSettings = {
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  durationSeconds: numberFromEnv('BENCH_DURATION', 5),
  warmupSeconds: numberFromEnv('BENCH_WARMUP', 1),
}
const loadRounds = numberFromEnv('BENCH_ROUNDS', 2)
const coldStartRuns = numberFromEnv('BENCH_COLD_RUNS', 9)
const sessionCount = 1000
const recordRequests = numberFromEnv('BENCH_RECORD_REQUESTS', 5000)
const log = (line: string) => console.log(line)
const run = promisify(execFile)

const servers = {
  'node:http': { script: path('./servers/bare-http.mjs'), args: [] as string[] },
  express: { script: path('./servers/bare-express.mjs'), args: [] as string[] },
  sandbox: { script: path('../bin/platform-sandbox.mjs'), args: ['--port', '0', '--quiet'] },
}
type ServerName = keyof typeof servers

/** An access token of the host persona, signed in on the server at `url`. */
function sandboxToken(url: string): Promise<string> {
  return createSandboxClient({ baseUrl: url }).accessToken('host')
}

async function checkStatus(url: string, target: LoadTarget, server: string) {
  const response = await fetch(`${url}${target.path}`, {
    method: target.method,
    headers: target.headers ?? {},
    ...(target.body === undefined ? {} : { body: target.body }),
  })
  await response.arrayBuffer()
  if (response.status !== target.status) {
    throw new Error(
      `Failed to benchmark ${server}: ${target.method} ${target.path} answered ${response.status}, expected ${target.status}`,
    )
  }
}

async function main() {
  const pinning = setUpPinning()
  const started = new Date()
  const loadAverage = loadavg()
  log(`Pinning: ${pinning.note}`)
  // The package as users get it: the library build and the CLI bundle.
  log('Building the package (npm run build)...')
  await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })

  // 1. Throughput and p99 latency over HTTP, one server at a time.
  const targets = (token: string): Record<string, LoadTarget> => ({
    'GET /payprov/account-status': {
      method: 'GET',
      path: '/payprov/account-status',
      headers: { authorization: `Bearer ${token}` },
      status: 200,
    },
    'POST /users/usr_guest/follow?dryRun=true': {
      method: 'POST',
      path: '/users/usr_guest/follow?dryRun=true',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
      status: 201,
    },
  })
  // Rounds alternate between the servers and the best run of each is kept, so that a
  // burst of other work on the machine does not decide a ratio on its own.
  const http: Record<string, Partial<Record<ServerName, LoadResult>>> = {}
  const allRuns: { round: number; server: ServerName; target: string; result: LoadResult }[] = []
  let token = ''
  for (let round = 0; round < loadRounds; round++) {
    for (const name of ['sandbox', 'express', 'node:http'] as const) {
      const server = await startChildServer(pinning, servers[name].script, servers[name].args)
      try {
        if (name === 'sandbox' && token === '') token = await sandboxToken(server.url)
        for (const [label, target] of Object.entries(targets(token))) {
          await checkStatus(server.url, target, name)
          const result = await measureLoad(server.url, target, load)
          if (result.failures > 0) {
            throw new Error(
              `Failed to benchmark ${name}: ${result.failures} failed requests on ${label}`,
            )
          }
          allRuns.push({ round, server: name, target: label, result })
          const best = http[label]?.[name]
          if (!best || result.requestsPerSecond > best.requestsPerSecond) {
            http[label] = { ...http[label], [name]: result }
          }
          log(
            `  round ${round + 1} ${name.padEnd(9)} ${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms`,
          )
        }
      } finally {
        await server.stop()
      }
    }
  }

  // 1b. The dashboard's live journal: the same load with and without a subscriber.
  log('Live journal stream: load with and without a subscriber...')
  const streamServer = await startChildServer(pinning, servers.sandbox.script, servers.sandbox.args)
  let stream: JournalStreamFigures
  try {
    stream = await measureJournalStream(
      streamServer.url,
      targets(token)['GET /payprov/account-status']!,
      load,
      loadRounds,
    )
  } finally {
    await streamServer.stop()
  }

  // 2. Cold start: spawn to first 200.
  log(`Cold start, ${coldStartRuns} runs each...`)
  const cold = await measureColdStarts(
    pinning,
    [
      { name: 'node:http', script: servers['node:http'].script, args: [], path: '/' },
      {
        name: 'sandbox',
        script: servers.sandbox.script,
        args: ['--quiet'],
        path: '/__sandbox/health',
      },
    ],
    coldStartRuns,
    4700 + (process.pid % 200),
  )

  // 3. In process: scenario loads and resets, lookups, sessions.
  log('Scenario loads and resets...')
  const defaults = await loadSandbox('default')
  const resetDefault = await measureReset(defaults.sandbox, 'default', defaults.firstLoadMs, 5)
  const large = await loadSandbox('large')
  const resetLarge = await measureReset(large.sandbox, 'large', large.firstLoadMs, 2)
  log('Lookups by id...')
  const lookup = await measureLookup(
    { default: defaults.sandbox, large: large.sandbox },
    (accessToken) => ({
      method: 'POST',
      url: '/notifications/ntf_host_unarchived/archive?dryRun=true',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: '{}',
    }),
    201,
    5000,
    5,
  )
  log('New sessions...')
  // Alternating rounds, median kept: the first round of either pays for the JIT warming up.
  const sessionRounds = { default: [] as SessionFigures[], large: [] as SessionFigures[] }
  for (let round = 0; round < 3; round++) {
    for (const [name, sandbox] of [
      ['default', defaults.sandbox],
      ['large', large.sandbox],
    ] as const) {
      sessionRounds[name].push(
        await measureSessions(sandbox, sessionCount, `bench-${name}-${round}`),
      )
    }
  }
  const medianOf = (rounds: SessionFigures[]): SessionFigures => ({
    ...rounds[0]!,
    totalMs: median(rounds.map((figures) => figures.totalMs)),
    heapDeltaMb: median(rounds.map((figures) => figures.heapDeltaMb)),
    rssDeltaMb: median(rounds.map((figures) => figures.rssDeltaMb)),
  })
  const sessionsDefault = medianOf(sessionRounds.default)
  const sessionsLarge = medianOf(sessionRounds.large)

  log('Saved snapshots and scenario files...')
  const snapshotReset = await measureSnapshotReset(large.sandbox, 20)
  const validation = await measureValidation(10_000, 5)

  // 4. Recorded traffic: the recorder against a bare forwarding proxy, and replay loading.
  log(`Recording proxy, ${loadRounds} rounds of ${recordRequests} requests each...`)
  const recording = await measureRecording(
    pinning,
    {
      upstream: servers['node:http'].script,
      bareProxy: path('./servers/bare-proxy.mjs'),
      cli: servers.sandbox.script,
    },
    { requests: recordRequests, connections: 10, rounds: loadRounds },
  )
  log('Replay of a 10,000-entry HAR...')
  const replay = await measureReplay(10_000)

  // 5. Figures.
  const figures: Figure[] = []
  for (const [label, results] of Object.entries(http)) {
    const sandbox = results.sandbox!
    const express = results.express!
    const bare = results['node:http']!
    figures.push(
      {
        group: label,
        name: 'throughput',
        value: sandbox.requestsPerSecond,
        unit: 'req/s',
        baselineName: 'Express',
        baseline: express.requestsPerSecond,
        goal: { kind: 'min', ratio: 0.8 },
        note: `best of ${loadRounds} runs of ${load.durationSeconds} s, ${load.connections} connections`,
      },
      {
        group: label,
        name: 'throughput',
        value: sandbox.requestsPerSecond,
        unit: 'req/s',
        baselineName: 'node:http',
        baseline: bare.requestsPerSecond,
      },
      {
        group: label,
        name: 'p99 latency',
        value: sandbox.p99Ms,
        unit: 'ms',
        baselineName: 'Express',
        baseline: express.p99Ms,
        note: 'of the same runs',
      },
      {
        group: label,
        name: 'p99 latency',
        value: sandbox.p99Ms,
        unit: 'ms',
        baselineName: 'node:http',
        baseline: bare.p99Ms,
      },
    )
  }
  figures.push({
    group: 'cold start',
    name: 'spawn to first 200, median',
    value: median(cold.get('sandbox')!),
    unit: 'ms',
    baselineName: 'node:http',
    baseline: median(cold.get('node:http')!),
    goal: { kind: 'max', ratio: 2.5 },
    note: `${coldStartRuns} runs; platform-sandbox runs its esbuild bundle`,
  })
  for (const reset of [resetDefault, resetLarge]) {
    const group = `scenario ${reset.scenario} (${reset.records.toLocaleString('en')} records)`
    const map = { unit: 'ms', baselineName: 'Map build', baseline: reset.mapBuildMs }
    figures.push(
      { group, name: 'first load: generate, validate, index', value: reset.firstLoadMs, ...map },
      { group, name: 'snapshot only: validate, index', value: reset.snapshotMs, ...map },
      {
        group,
        name: 'reset (snapshot cached)',
        value: reset.cachedResetMs,
        ...map,
        ...(reset.scenario === 'large' ? { goal: { kind: 'max' as const, ratio: 1 } } : {}),
      },
    )
  }
  figures.push({
    group: 'lookup by id',
    name: 'archive notification, dryRun, in process',
    value: lookup.largeMicros,
    unit: 'µs',
    baselineName: 'same on default',
    baseline: lookup.defaultMicros,
    goal: { kind: 'max', ratio: 1.5 },
    note: 'on large',
  })
  figures.push(
    {
      group: `saved snapshot (${snapshotReset.scenario})`,
      name: 'reset to a saved snapshot',
      value: snapshotReset.snapshotResetMs,
      unit: 'ms',
      baselineName: 'reset to the built-in scenario',
      baseline: snapshotReset.scenarioResetMs,
      goal: { kind: 'max', ratio: 1.5 },
      note: `saving it took ${snapshotReset.saveMs.toFixed(1)} ms`,
    },
    {
      group: `scenario file (${validation.records.toLocaleString('en')} records)`,
      name: 'validate records and references',
      value: validation.validateMs,
      unit: 'ms',
      baselineName: 'budget',
      baseline: 1000,
      goal: { kind: 'max', ratio: 1 },
    },
    {
      group: `scenario file (${validation.records.toLocaleString('en')} records)`,
      name: 'parse JSON and validate',
      value: validation.jsonMs,
      unit: 'ms',
      baselineName: 'budget',
      baseline: 1000,
      goal: { kind: 'max', ratio: 1 },
    },
    {
      group: `scenario file (${validation.records.toLocaleString('en')} records)`,
      name: 'parse YAML and validate',
      value: validation.yamlMs,
      unit: 'ms',
      baselineName: 'budget',
      baseline: 1000,
      note: 'the yaml package parses ~1 MB/s; keep large files as JSON',
    },
  )
  const perSession = (figuresOf: typeof sessionsLarge) =>
    `${((figuresOf.heapDeltaMb * 1024) / sessionCount).toFixed(1)} KB heap per session`
  figures.push(
    {
      group: `${sessionCount} new sessions, one write each`,
      name: 'time',
      value: sessionsLarge.totalMs,
      unit: 'ms',
      baselineName: 'same on default',
      baseline: sessionsDefault.totalMs,
      goal: { kind: 'max', ratio: 1.5 },
      note: 'on large',
    },
    {
      group: `${sessionCount} new sessions, one write each`,
      name: 'heap growth',
      value: sessionsLarge.heapDeltaMb,
      unit: 'MB',
      baselineName: 'same on default',
      baseline: sessionsDefault.heapDeltaMb,
      goal: { kind: 'max', ratio: 1.5 },
      note: `on large; ${perSession(sessionsLarge)}, rss ${sessionsLarge.rssDeltaMb.toFixed(1)} MB`,
    },
  )

  const recordingGroup = 'recording proxy, GET in front of bare node:http'
  figures.push(
    {
      group: recordingGroup,
      name: 'mean latency',
      value: recording.record.meanMs,
      unit: 'ms',
      baselineName: 'bare node:http proxy',
      baseline: recording.bare.meanMs,
      goal: { kind: 'max', ratio: 1.5 },
      note: `best of ${loadRounds} rounds of ${recordRequests} requests, 10 connections; every exchange written to the HAR`,
    },
    {
      group: recordingGroup,
      name: 'p99 latency',
      value: recording.record.p99Ms,
      unit: 'ms',
      baselineName: 'bare node:http proxy',
      baseline: recording.bare.p99Ms,
      note: 'of the same rounds',
    },
    {
      group: `replay of a ${replay.entries.toLocaleString('en')}-entry HAR`,
      name: 'load: parse and index',
      value: replay.loadMs,
      unit: 'ms',
      baselineName: 'default first load',
      baseline: defaults.firstLoadMs,
      goal: { kind: 'max', ratio: 1 },
    },
    {
      group: `replay of a ${replay.entries.toLocaleString('en')}-entry HAR`,
      name: 'match one request',
      value: replay.matchLargeMicros,
      unit: 'µs',
      baselineName: 'scan of every entry',
      baseline: replay.matchScanMicros,
      goal: { kind: 'max', ratio: 0.1 },
      note: 'indexed by method and path, then query and body',
    },
    {
      group: `replay of a ${replay.entries.toLocaleString('en')}-entry HAR`,
      name: 'match one request',
      value: replay.matchLargeMicros,
      unit: 'µs',
      baselineName: 'same among 10 entries',
      baseline: replay.matchSmallMicros,
    },
  )

  figures.push({
    group: 'live journal (dashboard)',
    name: 'GET /payprov/account-status throughput with a subscriber on /__sandbox/events',
    value: stream.with.requestsPerSecond,
    unit: 'req/s',
    baselineName: 'no subscriber',
    baseline: stream.without.requestsPerSecond,
    goal: { kind: 'min', ratio: 0.9 },
    note: `best of ${loadRounds} alternating rounds; the stream delivered ${stream.delivered.toLocaleString('en')} entries for ${stream.with.requests.toLocaleString('en')} measured requests plus the warm-up's`,
  })
  figures.push(...(await measurePackageCosts(log)))

  const report: BenchReport = {
    date: started.toISOString(),
    node: process.versions.node,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    pinning: pinning.note,
    loadAverage,
    settings: {
      ...load,
      loadRounds,
      coldStartRuns,
      sessionCount,
      gcExposed: sessionsLarge.gcExposed,
    },
    figures: withRatios(figures),
  }
  log('')
  for (const figure of report.figures) log(formatLine(figure))

  const results = path('./results/')
  await mkdir(results, { recursive: true })
  const markdown = toMarkdown(report)
  await writeFile(
    `${results}latest.json`,
    `${JSON.stringify({ ...report, raw: { http: allRuns, coldStartMs: Object.fromEntries(cold), resetDefault, resetLarge, lookup, sessionRounds, snapshotReset, validation, recording, replay } }, null, 2)}\n`,
  )
  await writeFile(`${results}latest.md`, `# Benchmark results\n\n${markdown}\n`)
  await updateReadme(path('../README.md'), markdown)
  log('\nWrote bench/results/latest.json, bench/results/latest.md and the table in README.md.')
}

await main()
