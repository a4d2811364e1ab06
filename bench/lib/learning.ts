/**
 * @module
 * Learning a scenario from a 10,000-entry HAR (`scenario from-har`), beside what loading
 * the same HAR for replay and validating the resulting scenario file cost in the same run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_SEED, scenarios } from '../../fixtures/scenarios.ts'
import { learnScenarioFromText } from '../../mocks/recordings/learn/learn-scenario.ts'
import { scenarioYaml } from '../../mocks/recordings/learn/scenario-yaml.ts'
import { readRecordingsFile } from '../../mocks/recordings/read-file.ts'
import { createReplay } from '../../mocks/recordings/replay.ts'
import { compileScenarios } from '../../mocks/scenarios/compile-scenarios.ts'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import { harText } from './recording.ts'
import type { Figure } from './report.ts'
import { collectGarbage, median, time } from './stats.ts'

export interface LearningFigures {
  entries: number
  covered: number
  /** Records the learned file adds, changes or removes. */
  records: number
  /** Reading the file, parsing it, learning, writing the YAML text; median of 3. */
  learnMs: number
  /** Loading the same file for replay (`--replay`), median of 3. */
  loadMs: number
  /** Parsing the learned YAML and validating it as `--scenario-file` does, median of 3. */
  validateMs: number
}

/** What `platform-sandbox scenario from-har` does, but for writing the file. */
async function learnOnce(file: string) {
  const learned = await learnScenarioFromText(readFileSync(file, 'utf8'), { name: 'bench' })
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
    for (let run = 0; run < 3; run++) {
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
  return {
    entries,
    covered: learned.covered,
    records,
    learnMs: median(learns),
    loadMs: median(loads),
    validateMs: median(validations),
  }
}

export function learningFigures(learning: LearningFigures): Figure[] {
  return [
    {
      group: `scenario from a ${learning.entries.toLocaleString('en')}-entry HAR`,
      name: 'learn: read, parse, infer, fill in with the factories, write the YAML',
      value: learning.learnMs,
      unit: 'ms',
      baselineName: 'replay load of the same HAR + validating the learned file',
      baseline: learning.loadMs + learning.validateMs,
      goal: { kind: 'max', ratio: 2 },
      note: `median of 3; ${learning.covered.toLocaleString('en')} exchanges covered, ${learning.records} records; baseline ${learning.loadMs.toFixed(1)} ms + ${learning.validateMs.toFixed(1)} ms`,
    },
  ]
}
