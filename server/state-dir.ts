/**
 * @module
 * Opt-in durability (`--state-dir <dir>`): every write a session performs is appended to
 * that session's log file before its answer is sent, and the logs are replayed on start,
 * each request at the time it first ran, so a restart or a `kill -9` loses at most the
 * write in flight. A reset truncates the session's log to a single reset line.
 *
 * Files: `<dir>/sessions/<base64url(session id)>.jsonl`, one JSON object per line:
 * `{ "time", "method", "url", "headers", "body" }` for a write, `{ "reset": { scenario, seed } }`
 * for a reset (with `snapshot` for a reset to a saved snapshot). Saved snapshots are kept
 * in `<dir>/snapshots/` (see `snapshot-files.ts`) and restored before the logs are
 * replayed. Written with `appendFileSync`: the line is in the operating system's hands
 * when the client gets its answer (it survives the process, not a power cut: no fsync).
 * A graceful stop (`flush()`, called once the server has closed) fsyncs the logs written
 * since the start, and their folder, so a stopped sandbox's state is on disk.
 */
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import type { SandboxRequest } from '../mocks/core/http.ts'
import type { OperationEvent, Sandbox, SandboxOptions } from '../mocks/core/sandbox.ts'
import { SESSION_HEADER } from '../mocks/core/session-id.ts'
import { persistSnapshots } from './snapshot-files.ts'

interface WriteRecord {
  time: string
  method: string
  url: string
  headers: Record<string, string>
  body: string | null
}

type LogRecord = WriteRecord | { reset: { scenario: string; seed: number; snapshot?: string } }

/** Request headers a replay needs; the session comes from the file. */
const KEPT_HEADERS = ['authorization', 'content-type', 'cookie'] as const

export interface RestoreSummary {
  sessions: number
  writes: number
  /** Saved snapshots restored. */
  snapshots: number
  /** What could not be restored as it was, one line each (a snapshot deleted since a reset to it). */
  warnings: string[]
}

export interface StateDir {
  /** `options` plus the clock a replay of the logs runs on. */
  readonly sandboxOptions: SandboxOptions
  /** Replays every session's log into `sandbox`, then logs what its events announce. */
  restore(sandbox: Sandbox): Promise<RestoreSummary>
  /** Writes the logs changed since the start (or the last flush) through to the disk. */
  flush(): void
}

/** fsync of a file or a folder that may have been removed since. */
function syncToDisk(path: string): void {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return
  }
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

function fileOf(directory: string, session: string): string {
  return join(directory, `${Buffer.from(session).toString('base64url')}.jsonl`)
}

function sessionOfFile(name: string): string | undefined {
  if (!name.endsWith('.jsonl')) return undefined
  return Buffer.from(name.slice(0, -'.jsonl'.length), 'base64url').toString('utf8')
}

/** The records of a log; a last line cut short by a crash is dropped (and cut off the file). */
function readLog(file: string): LogRecord[] {
  const text = readFileSync(file, 'utf8')
  const records: LogRecord[] = []
  let valid = 0
  for (const line of text.split('\n')) {
    if (line === '') continue
    try {
      records.push(JSON.parse(line) as LogRecord)
      valid += Buffer.byteLength(line) + 1
    } catch {
      break
    }
  }
  if (valid !== Buffer.byteLength(text)) writeFileSync(file, text.slice(0, valid))
  return records
}

function isWrite(event: OperationEvent): boolean {
  return (
    event.request.method.toUpperCase() === 'POST' &&
    event.status >= 200 &&
    event.status < 300 &&
    event.dryRun !== true
  )
}

/**
 * Prepares `directory` (created if missing) as the state directory of a sandbox made
 * with `options`.
 *
 * @example
 * const state = openStateDir('.sandbox-state', options)
 * const sandbox = createSandbox(state.sandboxOptions)
 * await state.restore(sandbox)
 */
export function openStateDir(directory: string, options: SandboxOptions = {}): StateDir {
  const sessionsDir = join(directory, 'sessions')
  mkdirSync(sessionsDir, { recursive: true })
  const clock = options.now ?? (() => new Date())
  let replayingAt: Date | undefined

  const written = new Set<string>()
  const append = (session: string, record: LogRecord) => {
    const file = fileOf(sessionsDir, session)
    appendFileSync(file, `${JSON.stringify(record)}\n`)
    written.add(file)
  }
  const truncate = (session: string) => rmSync(fileOf(sessionsDir, session), { force: true })

  function logOperation(event: OperationEvent): void {
    // A session created again after eviction starts from the scenario: so does its log.
    if (event.sessionCreated) truncate(event.session)
    if (!isWrite(event)) return
    const headers: Record<string, string> = {}
    for (const name of KEPT_HEADERS) {
      const value = event.request.headers[name]
      if (value !== undefined) headers[name] = value
    }
    append(event.session, {
      time: event.time.toISOString(),
      method: 'POST',
      url: event.request.url,
      headers,
      body: event.request.body ?? null,
    })
  }

  return {
    sandboxOptions: { ...options, now: () => replayingAt ?? clock() },
    flush() {
      for (const file of written) syncToDisk(file)
      written.clear()
      syncToDisk(sessionsDir)
    },
    async restore(sandbox) {
      await sandbox.ready
      const { reset } = sandbox
      const summary: RestoreSummary = { sessions: 0, writes: 0, snapshots: 0, warnings: [] }
      summary.snapshots = await persistSnapshots(directory, sandbox)
      const saved = new Set(sandbox.snapshots.list().map((info) => info.name))
      try {
        for (const name of readdirSync(sessionsDir)) {
          const session = sessionOfFile(name)
          if (session === undefined) continue
          summary.sessions++
          for (const record of readLog(join(sessionsDir, name))) {
            if ('reset' in record) {
              const { snapshot, scenario, seed } = record.reset
              if (snapshot !== undefined && saved.has(snapshot)) {
                await reset({ snapshot, session })
                continue
              }
              if (snapshot !== undefined) {
                summary.warnings.push(
                  `session "${session}" was reset to snapshot "${snapshot}", deleted since: restored on top of "${scenario}" (seed ${seed}) instead`,
                )
              }
              if (scenario in sandbox.scenarios) await reset({ scenario, seed, session })
              else {
                summary.warnings.push(
                  `session "${session}" was reset to scenario "${scenario}", not loaded now (an uploaded scenario does not outlive the process): restored on top of the starting scenario instead`,
                )
                await reset({ session })
              }
              continue
            }
            replayingAt = new Date(record.time)
            const request: SandboxRequest = {
              method: record.method,
              url: record.url,
              headers: { ...record.headers, [SESSION_HEADER]: session },
              body: record.body,
            }
            await sandbox.handle(request)
            summary.writes++
          }
        }
      } finally {
        replayingAt = undefined
      }
      sandbox.journal.clear()

      // From now on the log follows what the sandbox announces.
      sandbox.events.on('operation:applied', ({ data }) => logOperation(data))
      sandbox.events.on('session:reset', ({ data: { session, scenario, seed, snapshot } }) => {
        truncate(session)
        append(session, { reset: { scenario, seed, ...(snapshot ? { snapshot } : {}) } })
      })
      sandbox.events.on('session:dropped', ({ data: { session } }) => truncate(session))
      return summary
    },
  }
}
