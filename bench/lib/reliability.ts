/**
 * @module
 * What a long-lived shared sandbox holds and how fast it comes back: the memory of many
 * more sessions than the cap (each with a fault rule, a moved clock and journal entries)
 * beside the same at the cap; a restart on a state directory of 20,000 session logs beside
 * one on an empty directory; the first request of a session with a long log beside one
 * without; and an append with fsync beside one without.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anchors } from '../../fixtures/anchors.ts'
import type { JournalEntry } from '../../mocks/core/index.ts'
import { SESSION_HEADER } from '../../mocks/core/index.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { signIn } from '../../mocks/sandbox-client/sandbox-client.ts'
import { fileOfSession, openStateDir } from '../../server/state-dir.ts'
import { measureColdStarts } from './cold-start.ts'
import type { Pinning } from './pinning.ts'
import type { Figure } from './report.ts'
import { servers } from './settings.ts'
import { collectGarbage, median, time } from './stats.ts'

export interface MemoryFigures {
  sessions: number
  heapMb: number
  rssMb: number
}

export interface RestartFigures {
  logs: number
  emptyMs: number
  manyLogsMs: number
  /** First request of a session whose log holds `longLogWrites` writes, and of one without. */
  longLogWrites: number
  longLogFirstMs: number
  noLogFirstMs: number
}

export interface FsyncFigures {
  writes: number
  plainMs: number
  fsyncMs: number
}

const JOURNAL_ENTRIES = 20

/** A journal entry and its exchange as a request of the app leaves them. */
function journalEntry(session: string, index: number) {
  const entry: JournalEntry = {
    method: 'POST',
    path: `/bookings/bkg_${index}/decline`,
    query: {},
    status: 201,
    dryRun: false,
    session,
    time: new Date().toISOString(),
    durationMs: 0.4,
    operationId: 'declineBooking',
    persona: 'host',
  }
  const exchange = {
    request: {
      method: 'POST',
      url: entry.path,
      headers: { 'content-type': 'application/json', [SESSION_HEADER]: session },
      body: '{"reason":"Dates no longer available"}',
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json' },
      setCookie: [],
      body: { success: true },
    },
  }
  return { entry, exchange }
}

/**
 * Heap used after a full collection once `count` sessions each got a fault rule, a moved
 * clock and 20 journal entries, on a sandbox with the default cap (5,000 sessions).
 */
export async function measureSessionMemory(count: number): Promise<MemoryFigures> {
  let sandbox: Sandbox | undefined = createSandbox()
  await sandbox.ready
  const context = { seed: 1, operations: sandbox.operations, personaKeys: [] }
  for (let i = 0; i < count; i++) {
    const session = `memory-${i}`
    await sandbox.store(session)
    sandbox.faults.add(session, { path: '/payprov/account-status', status: 503 }, context)
    sandbox.clocks.advance(session, 3600)
    for (let j = 0; j < JOURNAL_ENTRIES; j++) {
      const { entry, exchange } = journalEntry(session, j)
      sandbox.journal.record(entry, exchange)
    }
  }
  collectGarbage()
  const { heapUsed, rss } = process.memoryUsage()
  // Held until measured, then let go for the next measure.
  void sandbox.sessionCount
  sandbox = undefined
  collectGarbage()
  return { sessions: count, heapMb: heapUsed / 1024 / 1024, rssMb: rss / 1024 / 1024 }
}

/** A sandbox on `directory` as the server opens one. */
async function openOn(directory: string, fsync = false) {
  const state = openStateDir(directory, {}, { fsync })
  const sandbox = createSandbox(state.sandboxOptions)
  await state.restore(sandbox)
  return sandbox
}

/** `count` successful writes in `session`: claim e-mails sent again (a resend is allowed). */
async function claimEmails(sandbox: Sandbox, session: string, count: number): Promise<number> {
  const token = await signIn(sandbox, 'guest')
  return time(async () => {
    for (let i = 0; i < count; i++) {
      const answer = await sandbox.handle({
        method: 'POST',
        url: `/venues/${anchors.venues.claimRequested}/send-claim-email`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          [SESSION_HEADER]: session,
        },
        body: '{}',
      })
      if (answer.status !== 201) throw new Error(`Failed to write: ${answer.status}`)
    }
  })
}

const read = (sandbox: Sandbox, session: string) =>
  sandbox.handle({
    method: 'GET',
    url: '/payprov/account-status',
    headers: { [SESSION_HEADER]: session },
  })

/**
 * Start to the first 200 of `/__sandbox/health` of the CLI on a state directory of `logs`
 * session logs (5 writes each) beside an empty one, alternating, median of `runs`; and the
 * first request of a session whose log holds 1,000 writes beside one without a log.
 */
export async function measureRestart(
  pinning: Pinning,
  logs: number,
  runs: number,
  port: number,
  log: (line: string) => void,
): Promise<RestartFigures> {
  const empty = mkdtempSync(join(tmpdir(), 'bench-state-empty-'))
  const many = mkdtempSync(join(tmpdir(), 'bench-state-many-'))
  const longLogWrites = 1000
  try {
    log(`  writing ${logs.toLocaleString('en')} session logs...`)
    const writer = await openOn(many)
    await claimEmails(writer, 'template', 5)
    await claimEmails(writer, 'long', longLogWrites)
    const sessionsDir = join(many, 'sessions')
    const template = fileOfSession(sessionsDir, 'template')
    for (let i = 1; i < logs - 1; i++) cpSync(template, fileOfSession(sessionsDir, `qa-${i}`))
    writeFileSync(join(empty, '.keep'), '')

    log(`  restarts, ${runs} runs each...`)
    const cli = servers.sandbox.script
    const times = await measureColdStarts(
      pinning,
      [
        {
          name: 'empty',
          script: cli,
          args: ['--quiet', '--state-dir', empty],
          path: '/__sandbox/health',
        },
        {
          name: 'many',
          script: cli,
          args: ['--quiet', '--state-dir', many],
          path: '/__sandbox/health',
        },
      ],
      runs,
      port,
    )

    log('  first request of a session with a long log...')
    const longFirst: number[] = []
    const noLogFirst: number[] = []
    for (let round = 0; round < 5; round++) {
      const sandbox = await openOn(many)
      await read(sandbox, 'warm-up')
      noLogFirst.push(await time(() => read(sandbox, `no-log-${round}`)))
      longFirst.push(await time(() => read(sandbox, 'long')))
    }
    return {
      logs,
      emptyMs: median(times.get('empty')!),
      manyLogsMs: median(times.get('many')!),
      longLogWrites,
      longLogFirstMs: median(longFirst),
      noLogFirstMs: median(noLogFirst),
    }
  } finally {
    rmSync(empty, { recursive: true, force: true })
    rmSync(many, { recursive: true, force: true })
  }
}

/** `writes` logged writes with an fsync per append beside the same without, median of 3. */
export async function measureFsync(writes: number): Promise<FsyncFigures> {
  const plain: number[] = []
  const synced: number[] = []
  for (let round = 0; round < 3; round++) {
    for (const fsync of [false, true]) {
      const directory = mkdtempSync(join(tmpdir(), 'bench-fsync-'))
      try {
        const sandbox = await openOn(directory, fsync)
        await claimEmails(sandbox, 'warm-up', 5)
        const ms = await claimEmails(sandbox, `round-${round}`, writes)
        ;(fsync ? synced : plain).push(ms)
      } finally {
        rmSync(directory, { recursive: true, force: true })
      }
    }
  }
  return { writes, plainMs: median(plain), fsyncMs: median(synced) }
}

export function reliabilityFigures(
  atCap: MemoryFigures,
  pastCap: MemoryFigures,
  restart: RestartFigures,
  fsync: FsyncFigures,
): Figure[] {
  const group = 'reliability'
  const sessions = (figures: MemoryFigures) => `${figures.sessions.toLocaleString('en')} sessions`
  return [
    {
      group,
      name: `heap after GC, ${sessions(pastCap)} (each a fault rule, a moved clock, ${JOURNAL_ENTRIES} journal entries)`,
      value: pastCap.heapMb,
      unit: 'MB',
      baselineName: `same, ${sessions(atCap)} (the cap)`,
      baseline: atCap.heapMb,
      goal: { kind: 'max', ratio: 1.1 },
    },
    {
      group,
      name: `RSS, ${sessions(pastCap)}`,
      value: pastCap.rssMb,
      unit: 'MB',
      baselineName: `same, ${sessions(atCap)}`,
      baseline: atCap.rssMb,
      note: 'reported: RSS steps up once past the cap without a leak',
    },
    {
      group,
      name: `restart on a state directory of ${restart.logs.toLocaleString('en')} session logs: start to first 200 of /__sandbox/health`,
      value: restart.manyLogsMs,
      unit: 'ms',
      baselineName: 'same, empty state directory',
      baseline: restart.emptyMs,
      goal: { kind: 'max', ratio: 1.2 },
    },
    {
      group,
      name: `first request of a session whose log holds ${restart.longLogWrites.toLocaleString('en')} writes`,
      value: restart.longLogFirstMs,
      unit: 'ms',
      baselineName: 'first request of a session without a log',
      baseline: restart.noLogFirstMs,
      note: 'reported: the log is applied when the session is first used',
    },
    {
      group,
      name: `${fsync.writes} logged writes with --fsync`,
      value: fsync.fsyncMs / fsync.writes,
      unit: 'ms/write',
      baselineName: 'same without',
      baseline: fsync.plainMs / fsync.writes,
      note: 'reported: what forcing each append to the disk costs',
    },
  ]
}
