/**
 * @module
 * Figures of scenarios as data: resetting a session to a saved snapshot against
 * resetting it to a built-in scenario, and checking a 10,000-record scenario file.
 */
import { stringify } from 'yaml'
import { DEFAULT_SEED, scenarios } from '../../fixtures/scenarios.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import { signIn } from '../../mocks/sandbox-client/sandbox-client.ts'
import { compileScenarios } from '../../mocks/scenarios/compile-scenarios.ts'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import { followRequest } from './in-process.ts'
import { median, time } from './stats.ts'

export interface SnapshotResetFigures {
  scenario: string
  /** Saving the session's state (one `Map` entry per record, its own writes copied). */
  saveMs: number
  /** `reset({ snapshot })`, median of the repeats. */
  snapshotResetMs: number
  /** `reset({ scenario })` on the same sandbox, same repeats. */
  scenarioResetMs: number
}

export interface ValidationFigures {
  records: number
  /** Validating every record and reference of the already parsed file. */
  validateMs: number
  /** Parsing the file as JSON, then validating it. */
  jsonMs: number
  /** Parsing the file as YAML (js-yaml; see `parse-text.ts`), then validating it. */
  yamlMs: number
}

/** Alternates resets to a saved snapshot and to the built-in scenario on `sandbox`. */
export async function measureSnapshotReset(
  sandbox: Sandbox,
  repeats: number,
): Promise<SnapshotResetFigures> {
  const scenario = sandbox.settings.scenario
  const session = `snapshot-${scenario}`
  const token = await signIn(sandbox, 'host')
  const write = () => sandbox.handle(followRequest(token, session))
  await write()
  const saves: number[] = []
  for (let i = 0; i < 5; i++)
    saves.push(await time(() => sandbox.snapshots.save('bench', { session, replace: true })))
  const toSnapshot: number[] = []
  const toScenario: number[] = []
  for (let i = 0; i < repeats; i++) {
    await sandbox.reset({ scenario, session })
    await write()
    toSnapshot.push(await time(() => sandbox.reset({ snapshot: 'bench', session })))
    await write()
    toScenario.push(await time(() => sandbox.reset({ scenario, session })))
  }
  sandbox.snapshots.delete('bench')
  return {
    scenario,
    saveMs: median(saves),
    snapshotResetMs: median(toSnapshot),
    scenarioResetMs: median(toScenario),
  }
}

/** A valid scenario file of `count` added records: a venue, bookings and notifications. */
export function largeScenarioFile(count: number) {
  const bookings = []
  const notifications = []
  for (let i = 0; i < count / 2; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0')
    bookings.push({
      id: `bkg_bench_${i}`,
      listingId: 'ven_bench',
      guestId: 'usr_guest',
      hostId: 'usr_host',
      status: 'pending',
      startsAt: `2026-07-${day}T18:00:00.000Z`,
      endsAt: `2026-07-${day}T22:00:00.000Z`,
      amount: 480,
      currency: 'EUR',
      declineReason: null,
    })
    notifications.push({
      id: `ntf_bench_${i}`,
      userId: 'usr_host',
      kind: 'booking.requested',
      title: 'Gina Guest wants to book Bench Loft',
      body: `Gina Guest asked for Bench Loft on 2026-07-${day}, 18:00-22:00.`,
      createdAt: '2026-06-01T09:00:00.000Z',
      readAt: null,
      archivedAt: null,
    })
  }
  const venue = {
    id: 'ven_bench',
    name: 'Bench Loft',
    city: 'Lisbon',
    ownerId: 'usr_host',
    claimStatus: 'claimed',
    contactEmail: 'bench@venues.example.com',
  }
  return {
    name: 'bench-10k',
    description: 'Ten thousand added records',
    extends: 'empty',
    add: { venues: [venue], bookings, notifications },
  }
}

/** Validates a `count`-record file, parsed already, from JSON and from YAML; medians of `repeats`. */
export async function measureValidation(
  count: number,
  repeats: number,
): Promise<ValidationFigures> {
  const file = largeScenarioFile(count)
  const texts = { yaml: stringify(file), json: JSON.stringify(file) }
  const check = (parsed: unknown, source: string) =>
    compileScenarios([{ file: parsed, source }], scenarios, { seed: DEFAULT_SEED })
  const runs = { validate: [] as number[], yaml: [] as number[], json: [] as number[] }
  for (let i = 0; i < repeats; i++) {
    const parsed = JSON.parse(texts.json)
    runs.validate.push(await time(() => check(parsed, 'bench-10k.json')))
    runs.json.push(
      await time(() => check(parseScenarioText(texts.json, 'bench-10k.json'), 'bench-10k.json')),
    )
    runs.yaml.push(
      await time(() => check(parseScenarioText(texts.yaml, 'bench-10k.yaml'), 'bench-10k.yaml')),
    )
  }
  return {
    records: count + 1,
    validateMs: median(runs.validate),
    jsonMs: median(runs.json),
    yamlMs: median(runs.yaml),
  }
}
