/**
 * @module
 * `platform-sandbox state check|repair <dir>`: the state directory (`--state-dir`) read as a
 * start reads it. `check` names every session log line a start cannot replay and every snapshot
 * file it cannot restore; `repair` sets each log aside from its bad line on (into
 * `<log>.corrupt`, nothing deleted) and cuts torn last lines. Exit code 2 while a problem
 * remains. Run them on a directory no sandbox is using.
 */
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import type { ScenarioFile } from '../../mocks/core/index.ts'
import { restoreKept } from '../../mocks/core/index.ts'
import { createSandbox, type Sandbox } from '../../mocks/sandbox.ts'
import { ScenarioError } from '../../mocks/scenarios/compile-scenarios.ts'
import { readScenarioFiles } from '../../mocks/scenarios/load-files.ts'
import { readKeptFiles, scenarioFormat, snapshotFormat } from '../../server/kept-files.ts'
import {
  cutTornTail,
  decodeLine,
  type LogContents,
  type LogRecord,
  parseLog,
  sessionOfLogFile,
  syncToDisk,
} from '../../server/state-log.ts'
import { UsageError } from './input.ts'
import { type RefuseRecord, unansweredWrites } from './state-operations.ts'

export interface StateCommandOptions {
  /** The scenario files the sandbox starts with: a snapshot may descend from one of them. */
  scenarioFile?: string[]
  /** The file of operations of your own it starts with: their writes are no problem. */
  operations?: string
}

const PROBLEM_EXIT_CODE = 2

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`

const isWrite = (record: LogRecord) => !('reset' in record)

interface SessionLog {
  file: string
  /** The session its name encodes, or `undefined` when it encodes none (a start ignores it). */
  session: string | undefined
  bytes: Buffer
  contents: LogContents
}

function folders(directory: string): { sessions: string; snapshots: string } {
  const stats = statSync(directory, { throwIfNoEntry: false })
  if (!stats) throw new UsageError(`${directory}: no such directory`)
  if (!stats.isDirectory()) throw new UsageError(`${directory}: not a directory`)
  return { sessions: join(directory, 'sessions'), snapshots: join(directory, 'snapshots') }
}

const cannotRead = (path: string, error: unknown) =>
  new UsageError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`)

/** The names in `folder`, sorted; none when it does not exist. */
function entries(folder: string): string[] {
  try {
    return readdirSync(folder).sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw cannotRead(folder, error)
  }
}

function readSessionLogs(folder: string, refuse: RefuseRecord): SessionLog[] {
  return entries(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => {
      const file = join(folder, name)
      let bytes: Buffer
      try {
        bytes = readFileSync(file)
      } catch (error) {
        throw cannotRead(file, error)
      }
      const contents = parseLog(bytes, file, refuse)
      return { file, session: sessionOfLogFile(name), bytes, contents }
    })
}

const sessionLabel = (log: SessionLog) =>
  log.session === undefined ? 'no session' : `session "${log.session}"`

/** 1-based number of the line that starts at byte `offset`. */
const lineAt = (bytes: Uint8Array, offset: number) =>
  bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1

/** What the log says besides its problem: a torn or unterminated end, a name of no session. */
function logNotes(log: SessionLog): string[] {
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

const logProblem = (log: SessionLog) =>
  log.contents.corrupt &&
  `${log.file}:${log.contents.corrupt.line}: ${sessionLabel(log)}: ${log.contents.corrupt.reason}`

/** The sandbox the snapshots are rebuilt in, as a start has it: these scenario files, the kept. */
async function sandboxFor(options: StateCommandOptions, folder: string): Promise<Sandbox> {
  const kept = readKeptFiles(folder, entries(folder), scenarioFormat)
  try {
    const files = options.scenarioFile ? await readScenarioFiles(options.scenarioFile) : []
    const uploaded = kept.flatMap((file) => ('value' in file ? [file.value as ScenarioFile] : []))
    return createSandbox({ scenarios: [...files, ...uploaded] })
  } catch (error) {
    if (error instanceof ScenarioError) throw new UsageError(error.problems.join('; '))
    throw error
  }
}

/** Every snapshot file checked as a start restores it: read, parsed and rebuilt. */
async function checkSnapshots(folder: string, options: StateCommandOptions) {
  const report = { files: 0, problems: [] as string[], notes: [] as string[] }
  const hint = options.scenarioFile ? '' : ' (give them with --scenario-file)'
  let sandbox: Sandbox | undefined
  for (const file of readKeptFiles(folder, entries(folder), snapshotFormat)) {
    if ('temporary' in file) {
      report.notes.push(
        `${file.source}: note: a save cut short by a crash: removed on the next start`,
      )
      continue
    }
    report.files++
    sandbox ??= await sandboxFor(options, join(dirname(folder), 'scenarios'))
    const failed = await restoreKept(file, sandbox.snapshots.restore)
    report.problems.push(...failed.map((line) => ('value' in file ? `${line}${hint}` : line)))
  }
  return report
}

function summary(logs: readonly SessionLog[], snapshots: number, problems: number): string {
  const writes = logs.reduce((sum, log) => sum + log.contents.records.filter(isWrite).length, 0)
  return `${plural(logs.length, 'session log')}, ${plural(writes, 'write')}, ${plural(snapshots, 'snapshot')}: ${plural(problems, 'problem')}`
}

/**
 * `state check <dir>`: prints each problem (`<file>:<line>: session "<id>": <reason>`, or a
 * snapshot file's `<file>: <problem>`), notes what a start repairs by itself, then a summary.
 */
export async function runStateCheck(
  directory: string,
  options: StateCommandOptions = {},
): Promise<void> {
  const { sessions, snapshots } = folders(directory)
  const logs = readSessionLogs(sessions, await unansweredWrites(options.operations))
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

/** Writes `bytes` to a new file beside `log` (`<log>.corrupt`, `<log>.2.corrupt`...), synced. */
function setAside(log: string, bytes: Uint8Array): string {
  for (let attempt = 1; ; attempt++) {
    const file = attempt === 1 ? `${log}.corrupt` : `${log}.${attempt}.corrupt`
    try {
      writeFileSync(file, bytes, { flag: 'wx', flush: true })
      return file
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

/** The lines of `bytes` (a last one without newline counts) and how many of them are writes. */
function countLines(bytes: Uint8Array): { lines: number; writes: number } {
  let lines = 0
  let writes = 0
  for (let start = 0; start < bytes.length; lines++) {
    const newline = bytes.indexOf(0x0a, start)
    const end = newline === -1 ? bytes.length : newline
    const decoded = decodeLine(bytes.subarray(start, end))
    if (decoded.ok && isWrite(decoded.record)) writes++
    start = end + 1
  }
  return { lines, writes }
}

const writtenMeanwhile = (what: string) =>
  new UsageError(`${what}: stop the sandbox using it and run state repair again`)

/** Moves the log's lines from its corrupt one on into a file beside it; says what it did. */
function repairCorrupt(log: SessionLog, corrupt: NonNullable<LogContents['corrupt']>): string {
  const rest = log.bytes.subarray(corrupt.offset)
  const fd = openSync(log.file, 'r+')
  try {
    if (fstatSync(fd).size !== log.bytes.length) {
      throw writtenMeanwhile(`${log.file}: written while it was being repaired`)
    }
    const aside = setAside(log.file, rest)
    try {
      syncToDisk(dirname(aside))
    } catch {
      // A folder cannot be opened for fsync everywhere (not on Windows); the files are synced.
    }
    // Only once the rest is safely aside is the log cut before its bad line.
    ftruncateSync(fd, corrupt.offset)
    fsyncSync(fd)
    const { lines, writes } = countLines(rest)
    const kept = log.contents.records.filter(isWrite).length
    return `${log.file}: ${sessionLabel(log)}: set aside line ${corrupt.line} and after (${plural(lines, 'line')}, ${plural(writes, 'readable write')}) in ${aside}; ${plural(kept, 'write')} kept`
  } finally {
    closeSync(fd)
  }
}

/** Cuts a torn last line or ends an unterminated one; whether it changed the log. */
function cutEnd(log: SessionLog): boolean {
  try {
    return cutTornTail(log.file, log.contents)
  } catch (error) {
    throw writtenMeanwhile((error as Error).message)
  }
}

/**
 * `state repair <dir>`: sets each session log aside from its corrupt line on, cuts torn last
 * lines, reports snapshot files (leaving them as they are), then prints what is left.
 */
export async function runStateRepair(
  directory: string,
  options: StateCommandOptions = {},
): Promise<void> {
  const { sessions, snapshots } = folders(directory)
  const refuse = await unansweredWrites(options.operations)
  let repaired = 0
  for (const log of readSessionLogs(sessions, refuse)) {
    const { corrupt, tornTail, size, validBytes } = log.contents
    if (corrupt) console.log(repairCorrupt(log, corrupt))
    else if (cutEnd(log)) {
      console.log(
        tornTail
          ? `${log.file}: ${sessionLabel(log)}: cut its last line, cut short by a crash (${plural(size - validBytes, 'byte')})`
          : `${log.file}: ${sessionLabel(log)}: added its last line's missing newline`,
      )
    } else continue
    repaired++
  }
  const logs = readSessionLogs(sessions, refuse)
  const snapshotReport = await checkSnapshots(snapshots, options)
  for (const problem of snapshotReport.problems) console.log(problem)
  const remaining = logs.flatMap((log) => logProblem(log) ?? [])
  for (const problem of remaining) console.log(problem)
  const problems = remaining.length + snapshotReport.problems.length
  if (repaired === 0) console.log('No session log to repair.')
  console.log(summary(logs, snapshotReport.files, problems))
  if (snapshotReport.problems.length > 0) {
    console.log('Snapshot files are left as they are: fix or remove the file.')
  }
  if (problems > 0) process.exitCode = PROBLEM_EXIT_CODE
}
