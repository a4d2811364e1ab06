/**
 * @module
 * Figures measured inside this process on the sandbox itself (no HTTP): scenario
 * loads and resets against building a plain `Map`, lookups on `large` against
 * `default`, and the cost of new sessions.
 */

import { DEFAULT_SEED, scenarios } from '../../fixtures/scenarios.ts'
import type { SandboxRequest } from '../../mocks/core/index.ts'
import { collectionDefinitions, collectionNames, type DataSet } from '../../mocks/model/schemas.ts'
import { createSnapshot } from '../../mocks/model/store.ts'
import { createSandbox, type Sandbox } from '../../mocks/sandbox.ts'
import { SESSION_HEADER, signIn } from '../../mocks/sandbox-client/sandbox-client.ts'
import { collectGarbage, median, time } from './stats.ts'

/** The host follows the guest in `session`: the write several figures make. */
export function followRequest(token: string, session: string): SandboxRequest {
  return {
    method: 'POST',
    url: '/users/usr_guest/follow',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      [SESSION_HEADER]: session,
    },
    body: '{}',
  }
}

export interface ResetFigures {
  scenario: string
  records: number
  /** Building one `Map` per collection, keyed like the store, from the generated records. */
  mapBuildMs: number
  /** A sandbox's first load of the scenario: generating the data, validating it, indexing it. */
  firstLoadMs: number
  /** Validating and indexing already generated records (the snapshot step alone). */
  snapshotMs: number
  /** `POST /__sandbox/reset` once the snapshot is cached: drops the session's own layer. */
  cachedResetMs: number
}

export interface LookupFigures {
  operation: string
  defaultMicros: number
  largeMicros: number
}

export interface SessionFigures {
  sessions: number
  writesPerSession: number
  scenario: string
  totalMs: number
  heapDeltaMb: number
  rssDeltaMb: number
  gcExposed: boolean
}

function countRecords(data: DataSet): number {
  return collectionNames.reduce((total, name) => total + data[name].length, 0)
}

function buildMaps(data: DataSet): number {
  let size = 0
  for (const name of collectionNames) {
    const key = collectionDefinitions[name].key as string
    const map = new Map<string, unknown>()
    for (const record of data[name] as Record<string, unknown>[])
      map.set(String(record[key]), record)
    size += map.size
  }
  return size
}

async function expectStatus(sandbox: Sandbox, request: SandboxRequest, status: number) {
  const answer = await sandbox.handle(request)
  if (answer.status !== status) {
    throw new Error(
      `Failed to benchmark ${request.method} ${request.url}: ${answer.status} ${JSON.stringify(answer.body)}`,
    )
  }
}

/** A sandbox that starts on `name`, and how long its first load took. */
export async function loadSandbox(
  name: 'default' | 'large',
): Promise<{ sandbox: Sandbox; firstLoadMs: number }> {
  const started = performance.now()
  const sandbox = createSandbox({ scenario: name })
  await sandbox.ready
  return { sandbox, firstLoadMs: performance.now() - started }
}

/** Reset figures of the scenario `sandbox` starts on. */
export async function measureReset(
  sandbox: Sandbox,
  name: 'default' | 'large',
  firstLoadMs: number,
  repeats: number,
): Promise<ResetFigures> {
  const scenario = scenarios[name]!
  const session = `reset-${name}`

  const data = scenario.build(DEFAULT_SEED)
  const mapTimes: number[] = []
  for (let i = 0; i < Math.max(repeats, 5); i++) mapTimes.push(await time(() => buildMaps(data)))
  const snapshotTimes: number[] = []
  for (let i = 0; i < repeats; i++) {
    snapshotTimes.push(await time(() => createSnapshot(name, DEFAULT_SEED, data)))
  }

  const token = await signIn(sandbox, 'host')
  const resetTimes: number[] = []
  for (let i = 0; i < 20; i++) {
    // Give the session a write of its own first, so that the reset has something to drop.
    await expectStatus(sandbox, followRequest(token, session), 201)
    resetTimes.push(await time(() => sandbox.reset({ scenario: name, session })))
  }
  return {
    scenario: name,
    records: countRecords(data),
    mapBuildMs: median(mapTimes),
    firstLoadMs,
    snapshotMs: median(snapshotTimes),
    cachedResetMs: median(resetTimes),
  }
}

/** Mean microseconds of `request` over `iterations`, median of `rounds`, per sandbox. */
export async function measureLookup(
  sandboxes: { default: Sandbox; large: Sandbox },
  makeRequest: (token: string) => SandboxRequest,
  status: number,
  iterations: number,
  rounds: number,
): Promise<{ defaultMicros: number; largeMicros: number }> {
  const requests = {
    default: makeRequest(await signIn(sandboxes.default, 'host')),
    large: makeRequest(await signIn(sandboxes.large, 'host')),
  }
  const results = { default: [] as number[], large: [] as number[] }
  for (const which of ['default', 'large'] as const) {
    await expectStatus(sandboxes[which], requests[which], status)
    for (let i = 0; i < iterations; i++) await sandboxes[which].handle(requests[which])
  }
  for (let round = 0; round < rounds; round++) {
    for (const which of ['default', 'large'] as const) {
      const sandbox = sandboxes[which]
      const request = requests[which]
      const elapsed = await time(async () => {
        for (let i = 0; i < iterations; i++) await sandbox.handle(request)
      })
      results[which].push((elapsed * 1000) / iterations)
    }
  }
  return { defaultMicros: median(results.default), largeMicros: median(results.large) }
}

/** Time and memory of `count` new sessions that each make one write; dropped afterwards. */
export async function measureSessions(
  sandbox: Sandbox,
  count: number,
  prefix: string,
): Promise<SessionFigures> {
  const scenario = sandbox.settings.scenario
  const token = await signIn(sandbox, 'host')
  const request = (index: number): SandboxRequest => ({
    method: 'POST',
    url: '/notifications/ntf_host_unarchived/archive',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      [SESSION_HEADER]: `${prefix}-${index}`,
    },
    body: '{}',
  })
  await expectStatus(sandbox, request(-1), 201)
  sandbox.dropSession(`${prefix}--1`)
  sandbox.journal.clear()
  const gcExposed = collectGarbage()
  const before = process.memoryUsage()
  const totalMs = await time(async () => {
    for (let i = 0; i < count; i++) await expectStatus(sandbox, request(i), 201)
  })
  sandbox.journal.clear()
  collectGarbage()
  const after = process.memoryUsage()
  for (let i = 0; i < count; i++) sandbox.dropSession(`${prefix}-${i}`)
  return {
    sessions: count,
    writesPerSession: 1,
    scenario,
    totalMs,
    heapDeltaMb: (after.heapUsed - before.heapUsed) / 1024 / 1024,
    rssDeltaMb: (after.rss - before.rss) / 1024 / 1024,
    gcExposed,
  }
}
