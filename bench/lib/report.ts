/**
 * @module
 * The benchmark's figures, each beside its baseline as a ratio, printed and
 * written to `bench/results/` and to the table between the markers of
 * `docs/contributing/benchmarks.md` (never the README, which stays short).
 */
import { readFile, writeFile } from 'node:fs/promises'

export interface Goal {
  /** `max`: the ratio must be at most `ratio`; `min`: at least. */
  kind: 'max' | 'min'
  ratio: number
}

export interface Figure {
  group: string
  name: string
  value: number
  unit: string
  baselineName: string
  baseline: number
  goal?: Goal
  note?: string
}

export interface BenchReport {
  date: string
  node: string
  cpu: string
  cores: number
  pinning: string
  loadAverage: number[]
  settings: Record<string, unknown>
  figures: (Figure & { ratio: number; met: boolean | null })[]
}

export const TABLE_START = '<!-- bench:start -->'
export const TABLE_END = '<!-- bench:end -->'
/** The page the table is written to, from the repository's root. */
export const BENCHMARKS_PAGE = 'docs/contributing/benchmarks.md'

function format(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2
  return `${value.toFixed(digits)} ${unit}`
}

export function withRatios(figures: readonly Figure[]): BenchReport['figures'] {
  return figures.map((figure) => {
    const ratio = figure.value / figure.baseline
    const met = figure.goal
      ? figure.goal.kind === 'max'
        ? ratio <= figure.goal.ratio
        : ratio >= figure.goal.ratio
      : null
    return { ...figure, ratio, met }
  })
}

function formatRatio(ratio: number): string {
  if (ratio >= 10) return `${ratio.toFixed(1)}x`
  if (ratio >= 0.1) return `${ratio.toFixed(2)}x`
  return `${ratio.toPrecision(2)}x`
}

function goalText(goal: Goal | undefined): string {
  if (!goal) return ''
  return `${goal.kind === 'max' ? '≤' : '≥'} ${goal.ratio}x`
}

function verdict(met: boolean | null): string {
  return met === null ? '' : met ? 'yes' : '**no**'
}

/** One line per figure, for the terminal. */
export function formatLine(figure: BenchReport['figures'][number]): string {
  const goal = figure.goal
    ? `  goal ${goalText(figure.goal)}: ${figure.met ? 'met' : 'NOT met'}`
    : ''
  return `${`${figure.group}: ${figure.name}`.padEnd(64)} ${format(figure.value, figure.unit).padStart(12)}  vs ${figure.baselineName} ${format(figure.baseline, figure.unit)}  = ${formatRatio(figure.ratio)}${goal}`
}

export function toMarkdown(report: BenchReport): string {
  const rows = report.figures.map(
    (figure) =>
      `| ${figure.group} | ${figure.name}${figure.note ? ` (${figure.note})` : ''} | ${format(figure.value, figure.unit)} | ${figure.baselineName}: ${format(figure.baseline, figure.unit)} | ${formatRatio(figure.ratio)} | ${goalText(figure.goal)} | ${verdict(figure.met)} |`,
  )
  return [
    `Measured ${report.date} on ${report.cpu} (${report.cores} cores), Node ${report.node}; ${report.pinning}; load average at start ${report.loadAverage.map((n) => n.toFixed(2)).join(', ')}.`,
    '',
    '| area | figure | sandbox | baseline | ratio | goal | met |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n')
}

/** `text` with the table between the bench markers, the markers added at the end if absent. */
export function withTable(text: string, table: string): string {
  const block = `${TABLE_START}\n${table}\n\nRegenerate with \`npm run bench\`; see [bench/README.md](../../bench/README.md).\n${TABLE_END}`
  const start = text.indexOf(TABLE_START)
  const end = text.indexOf(TABLE_END)
  return start !== -1 && end > start
    ? text.slice(0, start) + block + text.slice(end + TABLE_END.length)
    : `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}\n${block}\n`
}

/** Writes the table into the benchmarks page at `path` (`BENCHMARKS_PAGE`), made if absent. */
export async function updateBenchmarksPage(path: string, table: string): Promise<void> {
  let text = '# Benchmarks\n'
  try {
    text = await readFile(path, 'utf8')
  } catch {
    // No page yet: start one with a title and the markers.
  }
  await writeFile(path, withTable(text, table))
}
