/**
 * @module
 * `platform-sandbox state repair <dir>`: sets each session log of a state directory aside
 * from its bad line on (into `<log>.corrupt`, nothing deleted) and cuts torn last lines;
 * exit code 2 while a problem remains. Run it on a directory no sandbox is using.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { cutTornTail, decodeLine, type LogContents } from '../state-log.ts'
import { UsageError } from './input.ts'
import {
  checkSnapshots,
  folders,
  isWrite,
  logProblem,
  PROBLEM_EXIT_CODE,
  plural,
  readSessionLogs,
  type SessionLog,
  type StateCommandOptions,
  sessionLabel,
  summary,
} from './state-check.ts'

/** fsync of a folder, where the system allows it (not on Windows). */
function syncFolder(folder: string): void {
  let fd: number
  try {
    fd = openSync(folder, 'r')
  } catch {
    return
  }
  try {
    fsyncSync(fd)
  } catch {
    // A folder cannot be opened for fsync everywhere; the files themselves are synced.
  } finally {
    closeSync(fd)
  }
}

/** Writes `bytes` to a new file beside `log` (`<log>.corrupt`, else `<log>.2.corrupt`...), synced. */
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

/** Moves the log's lines from its corrupt one on into a file beside it; says what it did. */
function repairCorrupt(log: SessionLog, corrupt: NonNullable<LogContents['corrupt']>): string {
  const rest = log.bytes.subarray(corrupt.offset)
  const fd = openSync(log.file, 'r+')
  try {
    if (fstatSync(fd).size !== log.bytes.length) {
      throw new UsageError(
        `${log.file}: written while it was being repaired: stop the sandbox using it and run state repair again`,
      )
    }
    const aside = setAside(log.file, rest)
    syncFolder(dirname(aside))
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
    throw new UsageError(
      `${(error as Error).message}: stop the sandbox using it and run state repair again`,
    )
  }
}

/**
 * `state repair <dir>`: sets each session log aside from its corrupt line on, cuts torn
 * last lines, reports snapshot files (leaving them as they are), then prints the summary of
 * what is left; exit code 2 while a problem remains.
 */
export async function runStateRepair(
  directory: string,
  options: StateCommandOptions = {},
): Promise<void> {
  const { sessions, snapshots } = folders(directory)
  let repaired = 0
  for (const log of readSessionLogs(sessions)) {
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
  const logs = readSessionLogs(sessions)
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
