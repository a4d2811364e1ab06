/**
 * @module
 * Learns a scenario from recorded traffic: goes through a HAR's exchanges in order
 * (`learner.ts`), reads what each answer shows and what each write implies about the state
 * before it from the operations' own rules, and writes the result as records
 * (`materialize.ts`) on top of the scenario extended.
 */

import { personas } from '../../fixtures/personas.ts'
import { REFERENCE_DATE } from '../../fixtures/reference-date.ts'
import { DEFAULT_SEED, scenarios } from '../../fixtures/scenarios.ts'
import type { Operation } from '../../mocks/core/operation.ts'
import { Sandbox } from '../../mocks/core/sandbox.ts'
import { createFactories } from '../../mocks/factories/create-factories.ts'
import { operations as reference } from '../../mocks/operations/table.ts'
import { exportSnapshot } from '../../mocks/scenarios/export-snapshot.ts'
import { rebuildSnapshot } from '../../mocks/scenarios/rebuild-snapshot.ts'
import { DEFAULT_EXTENDS, type ScenarioFile } from '../../mocks/scenarios/scenario-file.ts'
import { resolveScenarios, type ScenarioInputs } from '../../mocks/scenarios/scenario-inputs.ts'
import { labelOf, readExchanges } from './exchanges.ts'
import { Learner, type NotCoveredExchange } from './learner.ts'
import { type LearnedSignIn, materialize } from './materialize.ts'
import { playForward } from './play-forward.ts'

export interface ScenarioFromHarOptions {
  /** The scenario's name. Default `learned`. */
  name?: string
  /** The scenario it starts from. Default `empty` (the personas and their accounts). */
  extends?: string
  /** Seed of the scenario extended and of the factories. Default the sandbox's. */
  seed?: number
  /** Scenarios `extends` may name besides the built-in ones. */
  scenarios?: ScenarioInputs
  /** How the description names the recording. Default `a recording`. */
  source?: string
  /**
   * `start` (default): the state before the first exchange, so that sending the recorded
   * requests again gives the recorded answers. `end`: the state where the recording
   * stopped, the learned start with the covered exchanges played forward on it.
   */
  at?: 'start' | 'end'
  /** The operations the recording is read with and learned from. Default the reference's. */
  operations?: readonly Operation[]
}

export interface LearnedScenario {
  scenario: ScenarioFile
  /** How many exchanges with the API the scenario reproduces. */
  covered: number
  /** Exchanges with the API (entries that are an operation). */
  exchanges: number
  /** Every entry of the recording. */
  entries: number
  notCovered: NotCoveredExchange[]
  /** Entries that are no operation of the API (pages, scripts, `/__sandbox`). */
  others: string[]
  /** Exchange indexes behind each learned record, by `<collection>:<key>`. */
  origins: Map<string, number[]>
  /** The label of exchange `index` (`#3 POST /bookings/bkg_1/decline 201`), for comments. */
  label(index: number): string
  /** Credentials of the users the scenario adds. */
  signIns: LearnedSignIn[]
}

const SNAPSHOT = 'learned-from-har'

/**
 * Learns the scenario a HAR document (`platform-sandbox record`'s, or a browser's export)
 * shows, with what it covered and what it could not. Throws a `RecordingsFormatError`
 * for a document that is not a HAR, and a `ScenarioError` for an unknown `extends`.
 */
export function learnScenario(document: unknown, options: ScenarioFromHarOptions = {}) {
  return learnFrom(() => document, options)
}

/** {@link learnScenario} from the text of a HAR file: a `SyntaxError` for text that is not JSON. */
export function learnScenarioFromText(text: string, options: ScenarioFromHarOptions = {}) {
  return learnFrom(() => JSON.parse(text), options)
}

/** Learns from the document `read` gives, read once the scenario extended is known to exist. */
async function learnFrom(
  read: () => unknown,
  options: ScenarioFromHarOptions,
): Promise<LearnedScenario> {
  const operations = options.operations ?? reference
  // The recording's start, once read: nothing reads the sandbox's clock before that.
  let now = REFERENCE_DATE
  const content = {
    operations,
    personas,
    scenarios,
    defaultSeed: DEFAULT_SEED,
    scenarioFiles: { resolve: resolveScenarios, exportSnapshot, rebuildSnapshot },
  }
  const sandbox = new Sandbox(content, {
    scenario: options.extends ?? DEFAULT_EXTENDS,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.scenarios === undefined ? {} : { scenarios: options.scenarios }),
    now: () => now,
  })
  const session = 'learn'
  const store = await sandbox.store(session)
  const { exchanges, others, total, startedAt } = readExchanges(read(), operations)
  const learner = new Learner(store)
  learner.learn(exchanges)
  const { notCovered } = learner
  now = startedAt ?? REFERENCE_DATE
  const { seed } = sandbox.settings
  const factories = createFactories({ store: sandbox.store, seed, now: sandbox.settings.now })
  const learned = await materialize(learner.facts, store, factories, { session, now })
  if (options.at === 'end') {
    const skipped = new Set(notCovered.map(({ index }) => index))
    const covered = exchanges.filter((exchange) => !skipped.has(exchange.index))
    for (const { exchange, reason } of await playForward(covered, sandbox, session, now)) {
      notCovered.push({ index: exchange.index, label: labelOf(exchange), reason })
    }
    notCovered.sort((a, b) => a.index - b.index)
  }
  // Exported as a saved snapshot is: what differs from the scenario extended.
  await sandbox.snapshots.save(SNAPSHOT, { session })
  const covered = exchanges.length - notCovered.length
  const at = options.at === 'end' ? 'where it stopped' : 'before its first exchange'
  const scenario: ScenarioFile = {
    ...(await sandbox.snapshots.export(SNAPSHOT)),
    name: options.name ?? 'learned',
    description: `Learned from ${options.source ?? 'a recording'}, ${at}: ${covered} of ${exchanges.length} exchanges with the API reproduced`,
  }
  const byIndex = new Map(exchanges.map((exchange) => [exchange.index, exchange]))
  return {
    scenario,
    covered,
    exchanges: exchanges.length,
    entries: total,
    notCovered,
    others,
    origins: learned.origins,
    label: (index) => {
      const exchange = byIndex.get(index)
      return exchange ? labelOf(exchange) : `#${index + 1}`
    },
    signIns: learned.signIns,
  }
}
