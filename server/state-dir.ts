/**
 * @module
 * `--state-dir <dir>`: the store (`mocks/core/state-store.ts`) as files. A write-ahead log per
 * session, appended before a write is applied and loaded when the session is first used, its
 * modification time its last use; a retention sweep; saved snapshots and uploaded scenarios, a
 * file each. The discipline is in `server/README.md`, "Durability".
 */
import { mkdirSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoggedChange, SessionLog, StateStore } from '../mocks/core/index.ts'
import { SandboxError, SESSION_HEADER } from '../mocks/core/index.ts'
import type { Sandbox, SandboxOptions } from '../mocks/sandbox.ts'
import { keptFiles, scenarioFormat, snapshotFormat, storageError, storing } from './kept-files.ts'
import {
  cutTornTail,
  encodeRecord,
  isMissing,
  type LogFiles,
  type LogRecord,
  logFileName,
  nodeLogFiles,
  readLogFile,
  sessionOfLogFile,
  syncToDisk,
} from './state-log.ts'

/** Request headers a replay needs; the session comes from the file. */
const KEPT_HEADERS = ['authorization', 'content-type', 'cookie'] as const

const DEFAULT_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000
const SWEEP_INTERVAL_MS = 60 * 60 * 1000
/** After the start, once the first requests are answered. */
const FIRST_SWEEP_DELAY_MS = 10_000

export interface RestoreSummary {
  /** Session logs found; each is loaded when its session is first used. */
  sessions: number
  snapshots: number
  /** What could not be restored as it was (a snapshot deleted since a reset to it), as loaded. */
  warnings: string[]
}

export interface StateDirOptions {
  fsync?: boolean | undefined
  /** `0` keeps them. Default 7 days. */
  sessionTtlMs?: number | undefined
  /** The file layer; tests give one that fails. */
  files?: LogFiles | undefined
  onWarning?: ((message: string) => void) | undefined
}

export type StateDir = ReturnType<typeof openStateDir>

export function fileOfSession(directory: string, session: string): string {
  return join(directory, logFileName(session))
}

/** A change of the log as the core applies it. */
function changeOf(session: string, record: LogRecord): LoggedChange {
  if ('reset' in record) return record
  return {
    time: record.time,
    request: {
      method: record.method,
      url: record.url,
      headers: { ...record.headers, [SESSION_HEADER]: session },
      body: record.body,
    },
  }
}

/** Prepares `directory` (created if missing) as the state directory of a sandbox. */
export function openStateDir(
  directory: string,
  options: SandboxOptions = {},
  stateOptions: StateDirOptions = {},
) {
  const sessionsDir = join(directory, 'sessions')
  mkdirSync(sessionsDir, { recursive: true })
  const files = stateOptions.files ?? nodeLogFiles
  const sync = stateOptions.fsync ?? false
  const ttl = stateOptions.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS
  const warnings: string[] = []
  const written = new Set<string>()
  /** Logs whose failed append left bytes that must be cut before the next one. */
  const cuts = new Map<string, number>()
  let sandbox: Sandbox | undefined
  let timer: ReturnType<typeof setInterval> | undefined
  let first: ReturnType<typeof setTimeout> | undefined
  const log: SessionLog = {
    async load(session) {
      const file = fileOfSession(sessionsDir, session)
      let contents: ReturnType<typeof readLogFile>
      try {
        contents = readLogFile(file)
      } catch (error) {
        if (isMissing(error)) return undefined
        throw storageError(error)
      }
      const { corrupt } = contents
      if (corrupt) {
        throw new SandboxError(
          503,
          `Session "${session}" cannot be loaded: line ${corrupt.line} of its log does not parse`,
          [
            `${file}:${corrupt.line}: ${corrupt.reason}`,
            `platform-sandbox state check ${directory} lists every problem; platform-sandbox state repair ${directory} sets the log aside from that line on`,
          ],
        )
      }
      // A last line cut short by a crash goes, by bytes; a whole one missing its newline gets it.
      storing(() => cutTornTail(file, contents))
      files.touch(file)
      return contents.records.map((record) => changeOf(session, record))
    },
    write(session, { time, request }) {
      const file = fileOfSession(sessionsDir, session)
      const headers: Record<string, string> = {}
      for (const name of KEPT_HEADERS) {
        const value = request.headers[name]
        if (value !== undefined) headers[name] = value
      }
      const line = encodeRecord({
        time,
        method: request.method,
        url: request.url,
        headers,
        body: request.body ?? null,
      })
      storing(() => {
        const cut = cuts.get(file)
        if (cut !== undefined) {
          files.truncate(file, cut)
          cuts.delete(file)
        }
        const before = files.size(file)
        try {
          files.append(file, line, sync)
        } catch (error) {
          // Whatever part of the line reached the file goes, now or before the next append.
          try {
            files.truncate(file, before)
          } catch {
            cuts.set(file, before)
          }
          throw error
        }
      })
      written.add(file)
    },
    reset(session, reset) {
      const file = fileOfSession(sessionsDir, session)
      storing(() => files.replace(file, encodeRecord({ reset }), sync))
      cuts.delete(file)
      written.add(file)
    },
    drop(session) {
      const file = fileOfSession(sessionsDir, session)
      storing(() => files.remove(file))
      cuts.delete(file)
    },
    touch(session) {
      files.touch(fileOfSession(sessionsDir, session))
    },
    async list(unusedSince) {
      const sessions: string[] = []
      for (const name of await readdir(sessionsDir)) {
        const session = sessionOfLogFile(name)
        if (session === undefined) continue
        const used = unusedSince && (await stat(join(sessionsDir, name)).catch(() => undefined))
        if (!unusedSince || (used && used.mtime < unusedSince)) sessions.push(session)
      }
      return sessions
    },
    warn(message) {
      warnings.push(message)
      stateOptions.onWarning?.(message)
    },
  }

  const store: StateStore = {
    sessions: log,
    snapshots: keptFiles(join(directory, 'snapshots'), snapshotFormat, files, sync),
    scenarios: keptFiles(join(directory, 'scenarios'), scenarioFormat, files, sync),
    // Readiness: a file written and removed, so that a disk refusing writes is not ready.
    async ready() {
      const probe = join(directory, '.ready')
      try {
        files.replace(probe, 'ready\n', false)
        files.remove(probe)
      } catch (error) {
        throw new SandboxError(503, `The state directory ${directory} refuses writes`, [
          `storage error: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        ])
      }
    },
  }
  // Counted off the main thread while the starting scenario loads: a start reads no log.
  const counting = readdir(sessionsDir).then(
    (names) => names.filter((name) => name.endsWith('.jsonl')).length,
  )
  counting.catch(() => undefined)

  /** Deletes the logs of sessions not in memory and unused for the TTL; how many it deleted. */
  async function sweep(now = new Date()): Promise<number> {
    for (const session of sandbox?.sessionIds() ?? []) log.touch(session)
    if (ttl <= 0) return 0
    let removed = 0
    for (const session of await log.list(new Date(now.getTime() - ttl))) {
      // In use again since the sweep began: leave it.
      if (sandbox?.sessionIds().includes(session)) continue
      log.drop(session)
      removed++
    }
    return removed
  }

  return {
    /** `options` plus the store the sandbox logs to, loads sessions from and keeps the rest in. */
    sandboxOptions: { ...options, store },
    /** Writes the logs changed since the start (or the last flush) through to the disk. */
    flush() {
      clearInterval(timer)
      clearTimeout(first)
      timer = first = undefined
      for (const session of sandbox?.sessionIds() ?? []) log.touch(session)
      for (const file of written) syncToDisk(file)
      written.clear()
      syncToDisk(sessionsDir)
    },
    sweep,
    startSweeping() {
      const run = () => {
        sweep().catch((error: unknown) => {
          console.error(`platform-sandbox: the retention sweep of ${directory} failed:`, error)
        })
      }
      first = setTimeout(run, FIRST_SWEEP_DELAY_MS)
      timer = setInterval(run, SWEEP_INTERVAL_MS)
      first.unref()
      timer.unref()
    },
    /** Waits for the sandbox to restore what the directory keeps. */
    async restore(restored: Sandbox): Promise<RestoreSummary> {
      sandbox = restored
      await restored.ready
      const snapshots = restored.snapshots.list().length
      return { sessions: await counting, snapshots, warnings }
    },
  }
}
