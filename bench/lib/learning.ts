/**
 * @module
 * Learning a scenario from a 10,000-entry HAR (`scenario from-har`) against its budget,
 * the 1 s a scenario file of 10,000 records has; and beside what loading the same HAR for
 * replay and validating the resulting scenario file cost in the same run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readTextFile } from '../../cli/commands/input.ts'
import { scenarioYaml } from '../../cli/commands/scenario-command.ts'
import { DEFAULT_SEED, scenarios } from '../../fixtures/scenarios.ts'
import { compileScenarios } from '../../mocks/scenarios/compile-scenarios.ts'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import { learnScenarioFromText } from '../../recordings/learn/learn-scenario.ts'
import { readRecordingsFile } from '../../recordings/replay/read-file.ts'
import { createReplay } from '../../recordings/replay/replay.ts'
import { harText } from './recording.ts'
import type { Figure } from './report.ts'
import { collectGarbage, median, time } from './stats.ts'

/**
 * Rounds of the three measures, alternating. Each of them spreads by a fifth from one
 * round to the next on a shared machine (the collector, the compiler's threads on the
 * pinned core): the figure is the median of five, and the ratio to the baselines the
 * round of median ratio.
 */
const ROUNDS = 5

/** What learning from the 10,000-entry HAR may take: the budget of a scenario file. */
const BUDGET_MS = 1000

export interface LearningFigures {
  entries: number
  covered: number
  /** Records the learned file adds, changes or removes. */
  records: number
  /** Reading the file, parsing it, learning, writing the YAML text: median of the rounds. */
  learnMs: number
  /** The same, in the round of median ratio to the baselines below. */
  roundLearnMs: number
  /** Loading the same file for replay (`--replay`), in that round. */
  loadMs: number
  /** Parsing the learned YAML and validating it as `--scenario-file` does, in that round. */
  validateMs: number
  /** Each round's ratio of learning to its baseline, in round order. */
  ratios: number[]
}

/** What `platform-sandbox scenario from-har` does, but for writing the file. */
async function learnOnce(file: string) {
  const learned = await learnScenarioFromText(readTextFile(file), { name: 'bench' })
  return { learned, text: scenarioYaml(learned) }
}

/** Learns from a HAR of `entries` exchanges, alternating with its baselines. */
export async function measureLearning(entries = 10_000): Promise<LearningFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-learn-'))
  const file = join(folder, 'large.har')
  writeFileSync(file, harText(entries))
  const learns: number[] = []
  const loads: number[] = []
  const validations: number[] = []
  let last: Awaited<ReturnType<typeof learnOnce>> | undefined
  try {
    await learnOnce(file) // warm-up: the modules and the built-in scenario's snapshot
    for (let run = 0; run < ROUNDS; run++) {
      collectGarbage()
      learns.push(await time(async () => (last = await learnOnce(file))))
      collectGarbage()
      loads.push(await time(() => createReplay({ recordings: readRecordingsFile(file) })))
      collectGarbage()
      const text = last!.text
      validations.push(
        await time(() =>
          compileScenarios(
            [{ file: parseScenarioText(text, 'bench.yaml'), source: 'bench.yaml' }],
            scenarios,
            {
              seed: DEFAULT_SEED,
            },
          ),
        ),
      )
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  const { learned } = last!
  const records = (['add', 'change', 'remove'] as const).reduce(
    (sum, part) =>
      sum + Object.values(learned.scenario[part] ?? {}).reduce((n, list) => n + list.length, 0),
    0,
  )
  // The round of median ratio: a round's three measures run within a second of each
  // other, so a slow spell of a shared machine weighs on both sides of its ratio.
  const rounds = learns.map((learnMs, round) => ({
    learnMs,
    loadMs: loads[round]!,
    validateMs: validations[round]!,
    ratio: learnMs / (loads[round]! + validations[round]!),
  }))
  const middle = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!
  return {
    entries,
    covered: learned.covered,
    records,
    learnMs: median(learns),
    roundLearnMs: middle.learnMs,
    loadMs: middle.loadMs,
    validateMs: middle.validateMs,
    ratios: rounds.map((round) => round.ratio),
  }
}

export function learningFigures(learning: LearningFigures): Figure[] {
  const group = `scenario from a ${learning.entries.toLocaleString('en')}-entry HAR`
  return [
    {
      group,
      name: 'learn: read, JSON.parse, infer, fill in with the factories, write the YAML',
      value: learning.learnMs,
      unit: 'ms',
      baselineName: 'budget of a scenario file',
      baseline: BUDGET_MS,
      goal: { kind: 'max', ratio: 1 },
      note: `median of ${ROUNDS}; ${learning.covered.toLocaleString('en')} exchanges covered, ${learning.records} records`,
    },
    {
      group,
      name: 'learn',
      value: learning.roundLearnMs,
      unit: 'ms',
      baselineName: 'replay load of the same HAR + validating the learned file',
      baseline: learning.loadMs + learning.validateMs,
      note: `round of median ratio of ${ROUNDS} (${learning.ratios.map((ratio) => `${ratio.toFixed(2)}x`).join(', ')}); baseline ${learning.loadMs.toFixed(1)} ms + ${learning.validateMs.toFixed(1)} ms`,
    },
  ]
}
