/**
 * @module
 * `platform-sandbox state check <dir>`: the state directory (`--state-dir`) read as a start
 * reads it. Names every session log line that cannot be replayed (`<file>:<line>`) and every
 * snapshot file that cannot be restored; exit code 2 on any problem. `state-repair.ts` reads
 * it the same way. Run them on a directory no sandbox is using.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createSandbox, type Sandbox } from '../../mocks/sandbox.ts'
import { ScenarioError, type ScenarioSource } from '../../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../../mocks/scenarios/load-files.ts'
import { parseSnapshotFile, TEMPORARY_SUFFIX } from '../snapshot-files.ts'
import { type LogContents, type LogRecord, parseLog, sessionOfLogFile } from '../state-log.ts'
import { UsageError } from './input.ts'

export interface StateCommandOptions {
  /** The scenario files the sandbox starts with: a snapshot may descend from one of them. */
  scenarioFile?: string[]
}

/** Exit code of `state check` and `state repair` while a problem remains. */
export const PROBLEM_EXIT_CODE = 2

export const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`

export const isWrite = (record: LogRecord) => !('reset' in record)

export interface SessionLog {
  file: string
  /** The session its name encodes, or `undefined` when it encodes none (a start ignores it). */
  session: string | undefined
  bytes: Buffer
  contents: LogContents
}

interface SnapshotsReport {
  files: number
  /** `<file>: <problem>`, one a line, as a start reports them. */
  problems: string[]
  notes: string[]
}

export function folders(directory: string): { sessions: string; snapshots: string } {
  const stats = statSync(directory, { throwIfNoEntry: false })
  if (!stats) throw new UsageError(`${directory}: no such directory`)
  if (!stats.isDirectory()) throw new UsageError(`${directory}: not a directory`)
  return { sessions: join(directory, 'sessions'), snapshots: join(directory, 'snapshots') }
}

/** The names in `folder`, sorted; none when it does not exist. */
function entries(folder: string): string[] {
  try {
    return readdirSync(folder).sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new UsageError(
      `${folder}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
    )
  }
}

export function readSessionLogs(folder: string): SessionLog[] {
  return entries(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => {
      const file = join(folder, name)
      let bytes: Buffer
      try {
        bytes = readFileSync(file)
      } catch (error) {
        throw new UsageError(
          `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
        )
      }
      return { file, session: sessionOfLogFile(name), bytes, contents: parseLog(bytes, file) }
    })
}

export const sessionLabel = (log: SessionLog) =>
  log.session === undefined ? 'no session' : `session "${log.session}"`

/** 1-based number of the line that starts at byte `offset`. */
const lineAt = (bytes: Uint8Array, offset: number) =>
  bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1

/** What the log says besides its problem: a torn or unterminated last line, a name of no session. */
export function logNotes(log: SessionLog): string[] {
  const notes: string[] = []
  const { file, bytes, contents } = log
  if (log.session === undefined) {
    notes.push(
      `${file}: note: its name is not the base64url of a session id: no session is restored from it`,
    )
  }
  if (contents.tornTail) {
    notes.push(
      `${file}:${lineAt(bytes, contents.validBytes)}: ${sessionLabel(log)}: note: last line cut short by a crash (${plural(contents.size - contents.validBytes, 'byte')}, a write never answered): cut on the next start`,
    )
  }
  if (contents.unterminated) {
    notes.push(
      `${file}:${lineAt(bytes, contents.size - 1)}: ${sessionLabel(log)}: note: last line has no newline: added on the next start`,
    )
  }
  return notes
}

export const logProblem = (log: SessionLog) =>
  log.contents.corrupt &&
  `${log.file}:${log.contents.corrupt.line}: ${sessionLabel(log)}: ${log.contents.corrupt.reason}`

/** The sandbox the snapshots are rebuilt in, as a start with these scenario files has it. */
async function sandboxFor(options: StateCommandOptions): Promise<Sandbox> {
  let scenarios: ScenarioSource[] = []
  try {
    if (options.scenarioFile) scenarios = await readScenarioFiles(options.scenarioFile)
    return createSandbox({ scenarios })
  } catch (error) {
    if (error instanceof ScenarioError) throw new UsageError(error.problems.join('; '))
    throw error
  }
}

/** Every snapshot file checked as a start restores it: read, parsed and rebuilt. */
export async function checkSnapshots(
  folder: string,
  options: StateCommandOptions,
): Promise<SnapshotsReport> {
  const report: SnapshotsReport = { files: 0, problems: [], notes: [] }
  let sandbox: Sandbox | undefined
  for (const entry of entries(folder)) {
    const file = join(folder, entry)
    if (entry.endsWith(TEMPORARY_SUFFIX)) {
      report.notes.push(`${file}: note: a save cut short by a crash: removed on the next start`)
      continue
    }
    if (!entry.endsWith('.json')) continue
    report.files++
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      report.problems.push(`${file}: cannot be read (${(error as Error).message})`)
      continue
    }
    const parsed = parseSnapshotFile(text, entry.slice(0, -'.json'.length))
    if (!parsed.ok) {
      report.problems.push(...parsed.problems.map((problem) => `${file}: ${problem}`))
      continue
    }
    sandbox ??= await sandboxFor(options)
    try {
      await sandbox.snapshots.restore(parsed.record)
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      const hint = options.scenarioFile ? '' : ' (give them with --scenario-file)'
      report.problems.push(...error.problems.map((problem) => `${file}: ${problem}${hint}`))
    }
  }
  return report
}

export function summary(logs: readonly SessionLog[], snapshots: number, problems: number): string {
  const writes = logs.reduce((sum, log) => sum + log.contents.records.filter(isWrite).length, 0)
  return `${plural(logs.length, 'session log')}, ${plural(writes, 'write')}, ${plural(snapshots, 'snapshot')}: ${plural(problems, 'problem')}`
}

/**
 * `state check <dir>`: prints each problem as `<file>:<line>: session "<id>": <reason>` (a
 * snapshot file's as `<file>: <problem>`), notes what a start repairs by itself, then a
 * summary; exit code 2 when there is a problem.
 */
export async function runStateCheck(
  directory: string,
  options: StateCommandOptions = {},
): Promise<void> {
  const { sessions, snapshots } = folders(directory)
  const logs = readSessionLogs(sessions)
  const snapshotReport = await checkSnapshots(snapshots, options)
  let logProblems = 0
  for (const log of logs) {
    const problem = logProblem(log)
    if (problem) {
      logProblems++
      console.log(problem)
    }
    for (const note of logNotes(log)) console.log(note)
  }
  for (const line of [...snapshotReport.problems, ...snapshotReport.notes]) console.log(line)
  const problems = logProblems + snapshotReport.problems.length
  console.log(summary(logs, snapshotReport.files, problems))
  if (logProblems > 0) {
    console.log(
      `Run platform-sandbox state repair ${directory} to set each session log aside from its bad line on (nothing is deleted).`,
    )
  }
  if (snapshotReport.problems.length > 0) console.log('Snapshot files: fix or remove the file.')
  if (problems > 0) process.exitCode = PROBLEM_EXIT_CODE
}
