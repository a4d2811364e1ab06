/**
 * @module
 * `npm run bench`: every figure of the sandbox beside a baseline measured in the
 * same run, as a ratio. See bench/README.md for what is measured and how to read it.
 * The settings are in `lib/settings.ts`, each group of figures in its `lib/` module.
 */
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { promisify } from 'node:util'
import { measureColdStarts } from './lib/cold-start.ts'
import { measureContainer } from './lib/container.ts'
import { devtoolsFigures, measureStartupBundles, measureWorkerRequests } from './lib/devtools.ts'
import { inProcessFigures } from './lib/figures-in-process.ts'
import {
  coldStartFigure,
  httpFigures,
  journalStreamFigure,
  metricsCostFigure,
  ownOperationFigure,
  recordingFigures,
  replayFigures,
} from './lib/figures-over-http.ts'
import { httpTargets, measureHttpRounds } from './lib/http-rounds.ts'
import {
  loadSandbox,
  measureLookup,
  measureReset,
  measureSessions,
  type SessionFigures,
} from './lib/in-process.ts'
import { type JournalStreamFigures, measureJournalStream } from './lib/journal-stream.ts'
import { learningFigures, measureLearning } from './lib/learning.ts'
import { mcpFigures, measureMcp } from './lib/mcp.ts'
import { mcpAgentFigures, measureMcpAgent } from './lib/mcp-agent.ts'
import { measureMetricsCost } from './lib/metrics-cost.ts'
import { measureOwnOperation } from './lib/own-operation.ts'
import { measurePackageCosts, measureVite8Bundles } from './lib/package-costs.ts'
import { setUpPinning } from './lib/pinning.ts'
import { measureReactFirstAnswer } from './lib/react-first-answer.ts'
import { measureRecording, measureReplay } from './lib/recording.ts'
import { measureRedisStore } from './lib/redis-store.ts'
import {
  measureFsync,
  measureRestart,
  measureSessionMemory,
  reliabilityFigures,
} from './lib/reliability.ts'
import {
  BENCHMARKS_PAGE,
  type BenchReport,
  formatLine,
  toMarkdown,
  updateBenchmarksPage,
  withRatios,
} from './lib/report.ts'
import { measureSnapshotReset, measureValidation } from './lib/scenario-files.ts'
import { startChildServer } from './lib/servers.ts'
import {
  coldStartRuns,
  containerRuns,
  load,
  loadRounds,
  benchPath as path,
  recordRequests,
  recordRounds,
  servers,
  sessionCount,
} from './lib/settings.ts'
import { median } from './lib/stats.ts'

const log = (line: string) => console.log(line)
const run = promisify(execFile)
/** The port both sides of the container start figure listen on. */
const containerPort = 4900 + (process.pid % 100)
/** The port both sides of the restart figure listen on. */
const restartPort = 4500 + (process.pid % 100)

/**
 * A shared sandbox's bounds: memory past the session cap against at the cap, a restart on
 * 20,000 session logs against an empty state directory, fsync per append against without.
 */
async function measureReliability(pinning: ReturnType<typeof setUpPinning>) {
  log('Memory of 5,000 and 50,000 sessions (a fault rule, a clock, 20 journal entries each)...')
  const atCap = await measureSessionMemory(5000)
  const pastCap = await measureSessionMemory(50_000)
  log('Restart on 20,000 session logs...')
  const restart = await measureRestart(pinning, 20_000, coldStartRuns, restartPort, log)
  log('Logged writes with and without fsync...')
  const fsync = await measureFsync(200)
  return reliabilityFigures(atCap, pastCap, restart, fsync)
}

/** The recording proxy beside a bare proxy. */
async function measureRecordingProxy(pinning: ReturnType<typeof setUpPinning>) {
  log(`Recording proxy, ${recordRounds} alternating rounds of ${recordRequests} requests each...`)
  return measureRecording(
    pinning,
    {
      upstream: servers['node:http'].script,
      bareProxy: path('./servers/bare-proxy.mjs'),
      cli: servers.sandbox.script,
    },
    { requests: recordRequests, connections: 10, rounds: recordRounds },
  )
}

/**
 * Loading and matching a large replay, measured as `platform-sandbox --replay` starts:
 * in a process that has made the `default` scenario's first load and holds nothing else
 * (not one holding `large`); its goal is the server's cold start measured in the same run.
 */
async function measureLargeReplay() {
  log('Replay of a 10,000-entry HAR...')
  return measureReplay(10_000)
}

/** Learning a scenario from the same 10,000-entry HAR, beside loading it and validating the result. */
async function measureLargeLearning() {
  log('Learning a scenario from a 10,000-entry HAR...')
  return measureLearning(10_000)
}

/** Spawn to first 200: the CLI against a bare `node:http` server. */
function measureColdStart(pinning: ReturnType<typeof setUpPinning>) {
  return measureColdStarts(
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
}

async function main() {
  const pinning = setUpPinning()
  if (process.argv.includes('--core-only')) {
    // `npm run bench -- --core-only`: what a change of the core moves (throughput and latency
    // over HTTP against Express and node:http, the cold start), printed, not saved.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const { best: http } = await measureHttpRounds(pinning, log)
    log(`Cold start, ${coldStartRuns} runs each...`)
    const cold = await measureColdStart(pinning)
    for (const figure of withRatios([...httpFigures(http), ...coldStartFigure(cold)])) {
      log(formatLine(figure))
    }
    return
  }
  if (process.argv.includes('--metrics-only')) {
    // `npm run bench -- --metrics-only`: what the metrics cost GET throughput, not saved.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const figures = metricsCostFigure(await measureMetricsCost(pinning, log))
    for (const figure of withRatios(figures)) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--mcp-only')) {
    // `npm run bench -- --mcp-only`: the MCP endpoint's figures alone, not saved.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const agent = mcpAgentFigures(await measureMcpAgent())
    for (const figure of withRatios([...mcpFigures(await measureMcp(pinning)), ...agent])) {
      log(formatLine(figure))
    }
    return
  }
  if (process.argv.includes('--container-only')) {
    // `npm run bench -- --container-only`: the container image's figures alone, not saved.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const figures = await measureContainer(pinning, log, containerRuns, containerPort)
    for (const figure of withRatios(figures)) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--reliability-only')) {
    // `npm run bench -- --reliability-only`: memory past the session cap, restart on many
    // session logs, fsync per append; printed, not saved.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    for (const figure of withRatios(await measureReliability(pinning))) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--redis-only')) {
    // `npm run bench -- --redis-only`: one server on Redis beside it in memory; not saved.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    for (const figure of withRatios(await measureRedisStore(pinning))) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--learning-only')) {
    // `npm run bench -- --learning-only`: the scenario-learning figure alone, not saved.
    log(`Pinning: ${pinning.note}`)
    const learning = await measureLargeLearning()
    for (const figure of withRatios(learningFigures(learning))) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--recording-only') || process.argv.includes('--har-only')) {
    // `npm run bench -- --recording-only`: the recorded-traffic figures alone, not saved.
    // `--har-only`: those that read a HAR file (replay beside the cold start, learning),
    // without the recorder's.
    log(`Pinning: ${pinning.note}`)
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    log(`Cold start, ${coldStartRuns} runs each...`)
    const cold = await measureColdStart(pinning)
    const { firstLoadMs } = await loadSandbox('default')
    const replay = await measureLargeReplay()
    const figures = [...replayFigures(replay, median(cold.get('sandbox')!), firstLoadMs)]
    if (process.argv.includes('--har-only')) {
      figures.push(...learningFigures(await measureLargeLearning()))
    } else figures.unshift(...recordingFigures(await measureRecordingProxy(pinning)))
    for (const figure of withRatios(figures)) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--react-only')) {
    // `npm run bench -- --react-only`: the React recipe app's figures alone, not saved.
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const react = [...(await measureReactFirstAnswer(log)), await measureVite8Bundles(log)]
    for (const figure of withRatios(react)) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--own-operation-only')) {
    // `npm run bench -- --own-operation-only`: the operation of your own's figure, not saved.
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const own = await measureOwnOperation(pinning, servers.sandbox.script, load, loadRounds)
    for (const figure of withRatios(ownOperationFigure(own))) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--package-only')) {
    // `npm run bench -- --package-only`: what the package costs a user's project (the Vitest
    // import phase, the Vite 7 and 8 bundles), printed, not saved.
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    for (const figure of withRatios(await measurePackageCosts(log))) log(formatLine(figure))
    return
  }
  if (process.argv.includes('--devtools-only')) {
    // `npm run bench -- --devtools-only`: the in-page devtools figures alone, not saved.
    await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })
    const figures = devtoolsFigures(
      await measureWorkerRequests(log),
      await measureStartupBundles(log),
    )
    for (const figure of withRatios(figures)) log(formatLine(figure))
    return
  }
  const started = new Date()
  const loadAverage = loadavg()
  log(`Pinning: ${pinning.note}`)
  // The package as users get it: the library build and the CLI bundle.
  log('Building the package (npm run build)...')
  await run('npm', ['run', 'build', '--silent'], { cwd: path('..') })

  // 1. Throughput and p99 latency over HTTP, one server at a time.
  const { best: http, runs: allRuns, token } = await measureHttpRounds(pinning, log)

  // 1b. The dashboard's live journal: the same load with and without a subscriber.
  log('Live journal stream: load with and without a subscriber...')
  const streamServer = await startChildServer(pinning, servers.sandbox.script, servers.sandbox.args)
  let stream: JournalStreamFigures
  try {
    stream = await measureJournalStream(
      streamServer.url,
      httpTargets(token)['GET /payprov/account-status']!,
      load,
      loadRounds,
    )
  } finally {
    await streamServer.stop()
  }

  // 1c. The Prometheus metrics: the same load on the CLI with them and with --no-metrics.
  log('Metrics: load with and without them...')
  const metricsCost = await measureMetricsCost(pinning, log)

  // 1d. An operation of your own (the bookings example) beside a built-in read.
  log('Operation of your own: GET /host/bookings beside GET /payprov/account-status...')
  const own = await measureOwnOperation(pinning, servers.sandbox.script, load, loadRounds)

  // 2. Cold start: spawn to first 200.
  log(`Cold start, ${coldStartRuns} runs each...`)
  const cold = await measureColdStart(pinning)

  // 2b. The container image: `podman run` to first 200 beside the bare CLI, and its size.
  const container = await measureContainer(pinning, log, containerRuns, containerPort)

  // 3. In process: scenario loads and resets, lookups, sessions.
  log('Scenario loads and resets...')
  const defaults = await loadSandbox('default')
  const replay = await measureLargeReplay()
  const learning = await measureLargeLearning()
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

  // 4. Recorded traffic: the recorder against a bare forwarding proxy (replay: step 3).
  const recording = await measureRecordingProxy(pinning)

  // 4b. A shared sandbox's bounds: sessions past the cap, restart on many logs, fsync.
  const reliability = await measureReliability(pinning)
  log('One server on Redis beside it in memory...')
  const redisStore = await measureRedisStore(pinning)

  // 4c. MCP over HTTP: a tool that adds a fault rule against a no-op tool.
  log('MCP tool calls over /__sandbox/mcp...')
  const mcp = await measureMcp(pinning)
  log('MCP for coding agents: tools/list, the walk, the change summary...')
  const mcpAgent = await measureMcpAgent()

  // 5. Figures.
  const figures = [
    ...httpFigures(http),
    ...coldStartFigure(cold),
    ...container,
    ...inProcessFigures({
      resetDefault,
      resetLarge,
      lookup,
      snapshotReset,
      validation,
      sessionsDefault,
      sessionsLarge,
    }),
    ...recordingFigures(recording),
    ...replayFigures(replay, median(cold.get('sandbox')!), defaults.firstLoadMs),
    ...learningFigures(learning),
    ...reliability,
    ...redisStore,
    ...mcpFigures(mcp),
    ...mcpAgentFigures(mcpAgent),
    ...journalStreamFigure(stream),
    ...metricsCostFigure(metricsCost),
    ...ownOperationFigure(own),
    ...(await measurePackageCosts(log)),
    ...(await measureReactFirstAnswer(log)),
    ...devtoolsFigures(await measureWorkerRequests(log), await measureStartupBundles(log)),
  ]

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
    `${JSON.stringify({ ...report, raw: { http: allRuns, coldStartMs: Object.fromEntries(cold), resetDefault, resetLarge, lookup, sessionRounds, snapshotReset, validation, recording, replay, learning } }, null, 2)}\n`,
  )
  await writeFile(`${results}latest.md`, `# Benchmark results\n\n${markdown}\n`)
  await updateBenchmarksPage(path(`../${BENCHMARKS_PAGE}`), markdown)
  log(
    `\nWrote bench/results/latest.json, bench/results/latest.md and the table in ${BENCHMARKS_PAGE}.`,
  )
}

await main()
