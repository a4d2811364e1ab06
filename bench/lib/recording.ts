/**
 * @module
 * Recorded traffic: the recorder's latency against a bare forwarding proxy in front of
 * the same upstream, and loading and matching a 10,000-entry HAR for replay.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createHar, createHarEntry } from '../../recordings/har.ts'
import { createRecordingCheck } from '../../recordings/replay/check-recordings.ts'
import { readRecordingsFile, recordingsFile } from '../../recordings/replay/read-file.ts'
import { readRecordings } from '../../recordings/replay/recordings.ts'
import { createReplay } from '../../recordings/replay/replay.ts'
import openapi from '../../spec/generated/openapi.json' with { type: 'json' }
import type { Pinning } from './pinning.ts'
import { startChildServer } from './servers.ts'
import { collectGarbage, median, time } from './stats.ts'

export interface ProxyLatency {
  meanMs: number
  p99Ms: number
  requestsPerSecond: number
  requests: number
}

export interface RecordingFigures {
  bare: ProxyLatency
  record: ProxyLatency
  /** Exchanges the recorder wrote, over all its rounds. */
  recorded: number
  settings: { requests: number; connections: number; rounds: number }
}

async function measure(url: string, requests: number, connections: number) {
  const options = { url: `${url}/payprov/account-status`, connections, amount: requests }
  await autocannon({ ...options, amount: Math.ceil(requests / 4) })
  const result = await autocannon(options)
  if (result['2xx'] !== result.requests.total || result.errors > 0) {
    throw new Error(
      `Failed to benchmark the proxy at ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`,
    )
  }
  return {
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
  }
}

/** The round of median mean latency, so one lucky or unlucky round decides nothing. */
const medianRound = (runs: ProxyLatency[]): ProxyLatency =>
  [...runs].sort((a, b) => a.meanMs - b.meanMs)[Math.floor((runs.length - 1) / 2)]!

/**
 * Rounds alternate between the two proxies, each in front of the same bare `node:http`
 * upstream and measured the same way (a fresh process on the servers' pinned core, a
 * warm-up, then a fixed number of requests); the median round of each is kept.
 */
export async function measureRecording(
  pinning: Pinning,
  scripts: { upstream: string; bareProxy: string; cli: string },
  settings: { requests: number; connections: number; rounds: number },
): Promise<RecordingFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-record-'))
  const upstream = await startChildServer(pinning, scripts.upstream)
  const runs = { bare: [] as ProxyLatency[], record: [] as ProxyLatency[] }
  let recorded = 0
  try {
    for (let round = 0; round < settings.rounds; round++) {
      const bare = await startChildServer(pinning, scripts.bareProxy, ['--target', upstream.url])
      try {
        runs.bare.push(await measure(bare.url, settings.requests, settings.connections))
      } finally {
        await bare.stop()
      }
      const out = join(folder, `round-${round}.har`)
      const record = await startChildServer(pinning, scripts.cli, [
        'record',
        '--target',
        upstream.url,
        '--port',
        '0',
        '--out',
        out,
      ])
      try {
        const result = await measure(record.url, settings.requests, settings.connections)
        runs.record.push(result)
        recorded += result.requests
      } finally {
        await record.stop()
      }
    }
  } finally {
    await upstream.stop()
    rmSync(folder, { recursive: true, force: true })
  }
  return { bare: medianRound(runs.bare), record: medianRound(runs.record), recorded, settings }
}

export interface ReplayFigures {
  entries: number
  /**
   * From the file's path to a replay ready to answer, median of 3: reading the bytes,
   * `JSON.parse` of their text, each entry's route read, indexed by route.
   */
  loadMs: number
  /** The contract check of every recorded answer that follows the load, in slices. */
  checkMs: number
  /** For comparison: `JSON.parse` of the text already in memory, every entry checked, indexed. */
  parseLoadMs: number
  /** Mean time to match one request among `entries` recordings. */
  matchLargeMicros: number
  /** The same among 10 recordings. */
  matchSmallMicros: number
  /** The same by scanning the 10,000 recordings (method, path, query and body text compared). */
  matchScanMicros: number
}

/**
 * A recording of `count` dry-run declines of 500 bookings by 50 hosts, the token of each
 * redacted as the recorder does it (its subject kept, which learning a scenario reads).
 */
export function harText(count: number): string {
  const entries = Array.from({ length: count }, (_, i) =>
    createHarEntry({
      method: 'POST',
      url: `http://staging.test/bookings/bkg_${i % 500}/decline?dryRun=true`,
      requestHeaders: {
        'content-type': 'application/json',
        authorization: `Bearer [REDACTED sub=usr_h${i % 50}]`,
      },
      requestBody: JSON.stringify({ reason: `reason ${i}` }),
      status: 201,
      responseHeaders: { 'content-type': 'application/json; charset=utf-8' },
      responseBody: '{"success":true}',
      startedDateTime: '2026-06-01T10:00:00.000Z',
      time: 2,
    }),
  )
  return JSON.stringify(createHar(entries))
}

function matchMicros(text: string, count: number, calls: number): number {
  const replay = createReplay({
    recordings: recordingsFile('bench.har', new TextEncoder().encode(text)),
  })
  const started = performance.now()
  for (let call = 0; call < calls; call++) {
    const i = (call * 7919) % count
    const answer = replay.answer({
      method: 'POST',
      path: `/bookings/bkg_${i % 500}/decline`,
      query: new URLSearchParams('dryRun=true'),
      body: JSON.stringify({ reason: `reason ${i}` }),
      session: 'bench',
    })
    if (!answer) throw new Error('Failed to benchmark replay: a recorded request did not match')
  }
  return ((performance.now() - started) * 1000) / calls
}

function scanMicros(text: string, count: number, calls: number): number {
  const recordings = readRecordings(JSON.parse(text))
  const started = performance.now()
  for (let call = 0; call < calls; call++) {
    const i = (call * 7919) % count
    const path = `/bookings/bkg_${i % 500}/decline`
    const body = JSON.stringify({ reason: `reason ${i}` })
    const found = recordings.find(
      (recording) =>
        recording.method === 'POST' &&
        recording.path === path &&
        recording.query.toString() === 'dryRun=true' &&
        recording.body === body,
    )
    if (!found) throw new Error('Failed to benchmark the scan: a recorded request did not match')
  }
  return ((performance.now() - started) * 1000) / calls
}

/** Loads a HAR of `entries` exchanges for replay, and matches requests against it. */
export async function measureReplay(entries = 10_000): Promise<ReplayFigures> {
  const large = harText(entries)
  const small = harText(10)
  const folder = mkdtempSync(join(tmpdir(), 'bench-replay-'))
  const file = join(folder, 'large.har')
  writeFileSync(file, large)
  const loads: number[] = []
  const parseLoads: number[] = []
  const checks: number[] = []
  try {
    for (let run = 0; run < 3; run++) {
      // Each load starts on a collected heap: the previous check's garbage is not its cost.
      let replay: ReturnType<typeof createReplay> | undefined
      collectGarbage()
      loads.push(
        await time(() => (replay = createReplay({ recordings: readRecordingsFile(file) }))),
      )
      checks.push(await time(() => replay!.checkAll(async () => createRecordingCheck(openapi))))
      replay = undefined
      collectGarbage()
      parseLoads.push(await time(() => createReplay({ recordings: JSON.parse(large) })))
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  matchMicros(large, entries, 2000)
  return {
    entries,
    loadMs: median(loads),
    checkMs: median(checks),
    parseLoadMs: median(parseLoads),
    matchLargeMicros: median([0, 1, 2].map(() => matchMicros(large, entries, 20_000))),
    matchSmallMicros: median([0, 1, 2].map(() => matchMicros(small, 10, 20_000))),
    matchScanMicros: scanMicros(large, entries, 500),
  }
}
