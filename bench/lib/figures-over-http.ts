/**
 * @module
 * The figures measured over HTTP or in child processes: throughput and p99 beside Express
 * and bare `node:http`, cold start, the recording proxy, replay, and the live journal.
 */

import type { HttpRounds } from './http-rounds.ts'
import type { JournalStreamFigures } from './journal-stream.ts'
import type { MetricsCostFigures } from './metrics-cost.ts'
import type { OwnOperationFigures } from './own-operation.ts'
import type { RecordingFigures, ReplayFigures } from './recording.ts'
import type { Figure } from './report.ts'
import { coldStartRuns, load, loadRounds, recordRequests } from './settings.ts'
import { median } from './stats.ts'

export function httpFigures(http: HttpRounds['best']): Figure[] {
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
  return figures
}

export function coldStartFigure(cold: Map<string, number[]>): Figure[] {
  const figures: Figure[] = []
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
  return figures
}

/** The recording proxy beside a bare proxy. */
export function recordingFigures(recording: RecordingFigures): Figure[] {
  const figures: Figure[] = []
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
      note: `median of ${recording.settings.rounds} alternating rounds of ${recordRequests} requests, 10 connections; every exchange written to the HAR`,
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
  )
  return figures
}

/**
 * Replay of a large HAR: its load beside the server's cold start (`coldStartMs`, spawn to
 * first 200, median, measured in the same run), its check and its matching;
 * `firstLoadMs`: the default scenario's first load.
 */
export function replayFigures(
  replay: ReplayFigures,
  coldStartMs: number,
  firstLoadMs: number,
): Figure[] {
  const figures: Figure[] = []
  figures.push(
    {
      group: `replay of a ${replay.entries.toLocaleString('en')}-entry HAR`,
      name: 'load: read the file, JSON.parse, read each entry’s route, index by route',
      value: replay.loadMs,
      unit: 'ms',
      baselineName: 'server cold start',
      baseline: coldStartMs,
      goal: { kind: 'max', ratio: 1 },
      note: `median of 3, in process; the rest of each entry is checked on first use; the cold start is the median of ${coldStartRuns} spawns to first 200 of the same run`,
    },
    {
      group: `replay of a ${replay.entries.toLocaleString('en')}-entry HAR`,
      name: 'load',
      value: replay.loadMs,
      unit: 'ms',
      baselineName: 'JSON.parse of the text in memory, every entry checked, index',
      baseline: replay.parseLoadMs,
    },
    {
      group: `replay of a ${replay.entries.toLocaleString('en')}-entry HAR`,
      name: 'contract check of every answer after load, in slices of 8 ms between requests',
      value: replay.checkMs,
      unit: 'ms',
      baselineName: 'default first load',
      baseline: firstLoadMs,
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
  return figures
}

export function metricsCostFigure(cost: MetricsCostFigures): Figure[] {
  return [
    {
      group: 'metrics (Prometheus)',
      name: 'GET /payprov/account-status throughput with the metrics kept (the default)',
      value: cost.with.requestsPerSecond,
      unit: 'req/s',
      baselineName: 'the same CLI with --no-metrics',
      baseline: cost.without.requestsPerSecond,
      goal: { kind: 'min', ratio: 0.95 },
      note: `best of ${cost.rounds} alternating rounds, both servers running; the metrics counted ${cost.counted.toLocaleString('en')} requests for ${cost.measured.toLocaleString('en')} measured plus the warm-ups`,
    },
    {
      // Over HTTP, 5% is within the noise of a shared machine; in process it is not.
      group: 'metrics (Prometheus)',
      name: 'what the metrics add to a GET, in process (observed sandbox less unobserved)',
      value: cost.inProcess.onMicros - cost.inProcess.offMicros,
      unit: 'µs',
      baselineName: 'the server time of one GET over HTTP, without metrics (1 / throughput)',
      baseline: 1e6 / cost.without.requestsPerSecond,
      goal: { kind: 'max', ratio: 0.05 },
      note: `in process: median of ${cost.inProcess.requests.toLocaleString('en')} requests each, the sides taking turns every 100 (${cost.inProcess.onMicros.toFixed(1)} µs against ${cost.inProcess.offMicros.toFixed(1)} µs)`,
    },
  ]
}

export function journalStreamFigure(stream: JournalStreamFigures): Figure[] {
  const figures: Figure[] = []
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
  return figures
}

export function ownOperationFigure(own: OwnOperationFigures): Figure[] {
  return [
    {
      group: 'operations of your own',
      name: 'GET /host/bookings?limit=20 throughput (the bookings example, its answer checked)',
      value: own.own.requestsPerSecond,
      unit: 'req/s',
      baselineName: 'GET /payprov/account-status on the same process',
      baseline: own.builtIn.requestsPerSecond,
      goal: { kind: 'min', ratio: 0.8 },
      note: `best of ${loadRounds} alternating rounds; default scenario, ${own.items} bookings on the page (the host's all)`,
    },
  ]
}
