/**
 * @module
 * Learns a scenario from a HAR: its exchanges read in order (`learner.ts`), written as records on
 * the scenario extended (`materialize.ts`), played forward when asked for where it stopped.
 */
import { REFERENCE_DATE } from '../../fixtures/reference-date.ts'
import type { Operation, SandboxCore } from '../../mocks/core/index.ts'
import { assembleSandbox, issueAccessToken, SESSION_HEADER } from '../../mocks/core/index.ts'
import { createFactories } from '../../mocks/factories/create-factories.ts'
import { builtInContent } from '../../mocks/sandbox.ts'
import { DEFAULT_EXTENDS, type ScenarioFile } from '../../mocks/scenarios/scenario-file.ts'
import type { ScenarioInputs } from '../../mocks/scenarios/scenario-inputs.ts'
import { bearerSubject, isRedacted } from '../record/redact.ts'
import { type LearnExchange, labelOf, readExchanges } from './exchanges.ts'
import { Learner, type NotCoveredExchange } from './learner.ts'
import { type LearnedSignIn, materialize } from './materialize.ts'

export interface ScenarioFromHarOptions {
  /** Default `learned`. */
  name?: string
  /** The scenario it starts from. Default `empty`. */
  extends?: string
  /** Seed of the scenario extended and of the factories. */
  seed?: number
  /** Scenarios `extends` may name besides the built-in ones. */
  scenarios?: ScenarioInputs
  /** How the description names the recording. Default `a recording`. */
  source?: string
  /** `start` (default): before the first exchange. `end`: where the recording stopped. */
  at?: 'start' | 'end'
  /** The operations learned from. Default the reference's. */
  operations?: readonly Operation[]
}

export interface LearnedScenario {
  scenario: ScenarioFile
  /** Of the `exchanges` with the API, those reproduced; of the `entries`, those no operation. */
  covered: number
  exchanges: number
  entries: number
  notCovered: NotCoveredExchange[]
  others: string[]
  /** Exchange indexes behind each learned record, by `<collection>:<key>`, and their labels. */
  origins: Map<string, number[]>
  label(index: number): string
  /** Credentials of the users the scenario adds. */
  signIns: LearnedSignIn[]
}

const SNAPSHOT = 'learned-from-har'

/** The scenario a HAR document shows: a `RecordingsFormatError` for one that is not a HAR. */
export function learnScenario(document: unknown, options: ScenarioFromHarOptions = {}) {
  return learnFrom(() => document, options)
}

/** {@link learnScenario} from the text of a HAR file: a `SyntaxError` for text that is not JSON. */
export function learnScenarioFromText(text: string, options: ScenarioFromHarOptions = {}) {
  return learnFrom(() => JSON.parse(text), options)
}

/** Learns from what `read` gives, once the scenario extended is known to exist. */
async function learnFrom(
  read: () => unknown,
  options: ScenarioFromHarOptions,
): Promise<LearnedScenario> {
  const operations = options.operations ?? builtInContent.operations
  // The recording's start, once read: nothing reads the sandbox's clock before that.
  let now = REFERENCE_DATE
  const sandbox = assembleSandbox(
    { ...builtInContent, operations },
    {
      scenario: options.extends ?? DEFAULT_EXTENDS,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.scenarios === undefined ? {} : { scenarios: options.scenarios }),
      now: () => now,
    },
  )
  const session = 'learn'
  const store = await sandbox.store(session)
  const { exchanges, others, total, startedAt } = readExchanges(read(), operations)
  const learner = new Learner(store)
  learner.learn(exchanges)
  const { notCovered } = learner
  now = startedAt ?? REFERENCE_DATE
  const { seed, now: clock } = sandbox.settings
  const factories = createFactories({ store: sandbox.store, seed, now: clock })
  const learned = await materialize(learner.facts, store, factories, { session, now })
  if (options.at === 'end') {
    const skipped = new Set(notCovered.map(({ index }) => index))
    const covered = exchanges.filter((exchange) => !skipped.has(exchange.index))
    await playForward(covered, sandbox, session, notCovered)
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
    ...learned,
    label: (index) => (byIndex.has(index) ? labelOf(byIndex.get(index)!) : `#${index + 1}`),
  }
}

/** Sends the covered exchanges again at their recorded times; another status is not covered. */
async function playForward(
  exchanges: readonly LearnExchange[],
  sandbox: SandboxCore,
  session: string,
  notCovered: NotCoveredExchange[],
) {
  const store = await sandbox.store(session)
  const settings = { secret: sandbox.settings.secret, ttlSeconds: sandbox.settings.tokenTtlSeconds }
  // Each caller's token, issued at the time of the exchange that first needed it, and again
  // once half its lifetime has gone by on the recording's clock.
  const tokens = new Map<string, { token: string; issuedAt: number }>()
  let now = sandbox.settings.now() // the recording's start
  for (const exchange of exchanges) {
    now = exchange.startedAt ?? now
    sandbox.clocks.set(session, now)
    const { authorization, cookie, 'content-type': type } = exchange.headers
    const headers: Record<string, string> = { [SESSION_HEADER]: session }
    if (type !== undefined) headers['content-type'] = type
    if (cookie !== undefined && !isRedacted(cookie)) headers.cookie = cookie
    const subject = authorization === undefined ? undefined : bearerSubject(authorization)
    if (subject !== undefined) {
      let issued = tokens.get(subject)
      const age = issued === undefined ? 0 : now.getTime() - issued.issuedAt
      if (!issued || age < 0 || age > (settings.ttlSeconds * 1000) / 2) {
        const roles = [...(store.users.get(subject)?.roles ?? [])]
        const token = await issueAccessToken(settings, { sub: subject, roles }, now)
        issued = { token, issuedAt: now.getTime() }
        tokens.set(subject, issued)
      }
      headers.authorization = `Bearer ${issued.token}`
    } else if (authorization !== undefined) headers.authorization = authorization
    const answer = await sandbox.handle({
      method: exchange.operation.method,
      url: exchange.path + exchange.search,
      headers,
      ...(exchange.body === '' ? {} : { body: exchange.body }),
    })
    if (answer.status !== exchange.status) {
      const reason = `answered ${answer.status} when played forward from the learned start`
      notCovered.push({ index: exchange.index, label: labelOf(exchange), reason })
    }
  }
}
