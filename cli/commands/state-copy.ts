/**
 * @module
 * `platform-sandbox state copy <from> <to>`: a state directory into Redis or back (or Redis to
 * Redis), through the stores themselves: each session's log replaced by the source's, each
 * saved snapshot and uploaded scenario saved again. And `state check <redis-url>`: every log and
 * every snapshot and scenario read as a start reads them. Run them while no sandbox writes.
 */
import { existsSync } from 'node:fs'
import type { SavedSnapshotRecord, StateStore } from '../../mocks/core/index.ts'
import { SandboxError } from '../../mocks/core/index.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { ScenarioError } from '../../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../../mocks/scenarios/load-files.ts'
import { openRedisStore, redisPlace } from '../../server/redis-store.ts'
import { openStateDir } from '../../server/state-dir.ts'
import { UsageError } from './input.ts'
import type { StateCommandOptions } from './state.ts'

const PROBLEM_EXIT_CODE = 2

export const isRedisUrl = (place: string) => /^rediss?:\/\//.test(place)
/** For messages: a Redis URL without its password. */
const shown = (place: string) => (isRedisUrl(place) ? redisPlace(place) : place)

/** The store at `place` (a Redis URL or a directory), and how to let go of it. */
async function openPlace(place: string, existing: boolean) {
  if (isRedisUrl(place)) {
    const redis = await openRedisStore(place).catch((error: Error) => {
      throw new UsageError(error.message)
    })
    return { store: redis.store, close: redis.close }
  }
  if (existing && !existsSync(place)) throw new UsageError(`${place}: no such directory`)
  const directory = openStateDir(place)
  return { store: directory.sandboxOptions.store, close: async () => directory.flush() }
}

const problemOf = (error: unknown) => {
  if (error instanceof SandboxError) return [error.message, ...(error.details ?? [])].join(': ')
  return (error as Error).message
}

/** `state copy <from> <to>`: what `to` held of the same sessions and names is replaced. */
export async function runStateCopy(from: string, to: string): Promise<void> {
  const source = await openPlace(from, true)
  const target = await openPlace(to, false).catch(async (error: unknown) => {
    await source.close()
    throw error
  })
  const problems: string[] = []
  const counts = { sessions: 0, snapshots: 0, scenarios: 0 }
  try {
    for (const session of await source.store.sessions.list()) {
      let changes: Awaited<ReturnType<StateStore['sessions']['load']>>
      try {
        changes = await source.store.sessions.load(session)
      } catch (error) {
        problems.push(`session "${session}": ${problemOf(error)}`)
        continue
      }
      await target.store.sessions.drop(session)
      for (const change of changes ?? []) {
        if ('reset' in change) await target.store.sessions.reset(session, change.reset)
        else if ('control' in change) await target.store.sessions.note?.(session, change)
        else await target.store.sessions.write(session, change)
      }
      counts.sessions++
    }
    for (const kind of ['snapshots', 'scenarios'] as const) {
      for (const kept of await source.store[kind].list()) {
        if ('problems' in kept) {
          problems.push(...kept.problems)
          continue
        }
        const name =
          kind === 'snapshots'
            ? (kept.value as SavedSnapshotRecord).info.name
            : (kept.value as { name: string }).name
        await (target.store[kind] as StateStore['scenarios']).save(name, kept.value)
        counts[kind]++
      }
    }
  } finally {
    await Promise.all([source.close(), target.close()])
  }
  for (const problem of problems) console.log(problem)
  console.log(
    `Copied ${counts.sessions} session logs, ${counts.snapshots} saved snapshots and ${counts.scenarios} uploaded scenarios from ${shown(from)} to ${shown(to)}: ${problems.length} not copied`,
  )
  if (problems.length > 0) process.exitCode = PROBLEM_EXIT_CODE
}

/** `state check <redis-url>`: every session log read, the snapshots and scenarios restored. */
export async function runRedisCheck(url: string, options: StateCommandOptions): Promise<void> {
  const { store, close } = await openPlace(url, true)
  const problems: string[] = []
  let sessions = 0
  try {
    for (const session of await store.sessions.list()) {
      sessions++
      await store.sessions.load(session).catch((error: unknown) => {
        problems.push(`session "${session}": ${problemOf(error)}`)
      })
    }
    const files = options.scenarioFile ? await readScenarioFiles(options.scenarioFile) : []
    await createSandbox({ scenarios: files, store }).ready.catch((error: unknown) => {
      if (!(error instanceof ScenarioError)) throw error
      problems.push(...error.problems)
    })
  } finally {
    await close()
  }
  for (const problem of problems) console.log(problem)
  console.log(`${sessions} session logs in ${shown(url)}: ${problems.length} problems`)
  if (problems.length > 0) process.exitCode = PROBLEM_EXIT_CODE
}
