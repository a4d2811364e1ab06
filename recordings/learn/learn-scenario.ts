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
import { labelOf, type ReadExchanges, readExchanges } from './exchanges.ts'
import { Learner, type NotCoveredExchange } from './learner.ts'
import { type LearnedSignIn, materialize } from './materialize.ts'
import { playForward } from './play-forward.ts'

export type { NotCoveredExchange }

/** The sandbox the learner plays a recording on: the core with the record factories. */
export class LearnSandbox extends Sandbox {
  readonly factories = createFactories({
    store: this.store,
    seed: this.settings.seed,
    now: this.settings.now,
  })
}

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
export function learnScenario(
  document: unknown,
  options: ScenarioFromHarOptions = {},
): Promise<LearnedScenario> {
  return learnFrom(() => readExchanges(document, options.operations ?? reference), options)
}

/**
 * {@link learnScenario} from the text of a HAR file (what the command and
 * `scenarioFromHar(path)` read), parsed with `JSON.parse`: a `SyntaxError` for text that
 * is not JSON.
 */
export function learnScenarioFromText(
  text: string,
  options: ScenarioFromHarOptions = {},
): Promise<LearnedScenario> {
  return learnFrom(() => readExchanges(JSON.parse(text), options.operations ?? reference), options)
}

/** Learns from what `read` gives, read once the scenario extended is known to exist. */
async function learnFrom(
  read: () => ReadExchanges,
  options: ScenarioFromHarOptions,
): Promise<LearnedScenario> {
  const name = options.name ?? 'learned'
  // The recording's start, once read: nothing reads the sandbox's clock before that.
  let now = REFERENCE_DATE
  const content = {
    operations: options.operations ?? reference,
    personas,
    scenarios,
    defaultSeed: DEFAULT_SEED,
    scenarioFiles: { resolve: resolveScenarios, exportSnapshot, rebuildSnapshot },
  }
  const sandbox = new LearnSandbox(content, {
    scenario: options.extends ?? DEFAULT_EXTENDS,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.scenarios === undefined ? {} : { scenarios: options.scenarios }),
    now: () => now,
  })
  const session = 'learn'
  const base = await sandbox.store(session)
  const { exchanges, others, total, startedAt } = read()
  const learner = new Learner(base, options.at === 'end')
  learner.learn(exchanges)
  const { facts, notCovered, labels } = learner
  const count = labels.size
  now = startedAt ?? REFERENCE_DATE
  const learned = await materialize(facts, sandbox, { session, now })
  if (learner.kept) {
    const skipped = new Set(notCovered.map(({ index }) => index))
    const covered = learner.kept.filter((exchange) => !skipped.has(exchange.index))
    for (const { exchange, reason } of await playForward(covered, sandbox, session, now)) {
      notCovered.push({ index: exchange.index, label: labelOf(exchange), reason })
    }
    notCovered.sort((a, b) => a.index - b.index)
  }
  // Exported as a saved snapshot is: what differs from the scenario extended.
  await sandbox.snapshots.save(SNAPSHOT, { session })
  const scenario: ScenarioFile = {
    ...(await sandbox.snapshots.export(SNAPSHOT)),
    name,
    description: `Learned from ${options.source ?? 'a recording'}, ${options.at === 'end' ? 'where it stopped' : 'before its first exchange'}: ${count - notCovered.length} of ${count} exchanges with the API reproduced`,
  }
  return {
    scenario,
    covered: count - notCovered.length,
    exchanges: count,
    entries: total,
    notCovered,
    others,
    origins: learned.origins,
    label: (index) => labels.get(index) ?? `#${index + 1}`,
    signIns: learned.signIns,
  }
}

/**
 * The scenario a HAR document shows: the records that make every exchange it covers come
 * out the same when the requests are sent again, in order, to a sandbox started on it.
 *
 * @example
 * const learned = await scenarioFromHar(har, { name: 'staging-session' })
 * setupSandboxServer({ scenarios: [learned], scenario: 'staging-session' })
 */
export async function scenarioFromHar(
  har: unknown,
  options: ScenarioFromHarOptions = {},
): Promise<ScenarioFile> {
  return (await learnScenario(har, options)).scenario
}
