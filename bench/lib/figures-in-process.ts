/**
 * @module
 * The figures measured inside this process: scenario loads and resets beside building a
 * `Map`, lookups on `large` beside `default`, saved snapshots and scenario files, and the
 * cost of new sessions.
 */
import type { ResetFigures, SessionFigures } from './in-process.ts'
import type { Figure } from './report.ts'
import type { SnapshotResetFigures, ValidationFigures } from './scenario-files.ts'
import { sessionCount } from './settings.ts'

export interface InProcessMeasures {
  resetDefault: ResetFigures
  resetLarge: ResetFigures
  lookup: { defaultMicros: number; largeMicros: number }
  snapshotReset: SnapshotResetFigures
  validation: ValidationFigures
  sessionsDefault: SessionFigures
  sessionsLarge: SessionFigures
}

export function inProcessFigures({
  resetDefault,
  resetLarge,
  lookup,
  snapshotReset,
  validation,
  sessionsDefault,
  sessionsLarge,
}: InProcessMeasures): Figure[] {
  const figures: Figure[] = []
  for (const reset of [resetDefault, resetLarge]) {
    const group = `scenario ${reset.scenario} (${reset.records.toLocaleString('en')} records)`
    const map = { unit: 'ms', baselineName: 'Map build', baseline: reset.mapBuildMs }
    figures.push(
      {
        group,
        name: 'first load: generate, freeze, index (the generator’s records are not parsed again)',
        value: reset.firstLoadMs,
        ...map,
      },
      { group, name: 'snapshot only: freeze, index', value: reset.snapshotMs, ...map },
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
      goal: { kind: 'max', ratio: 1 },
      note: 'js-yaml, YAML 1.2 core schema',
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
  return figures
}
