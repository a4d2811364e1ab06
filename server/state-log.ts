/**
 * @module
 * A session's log (`<dir>/sessions/<base64url(id)>.jsonl`): its format, read by bytes, and the
 * file operations that write it (a test replaces them to fail on cue). One JSON record a line, a
 * write or a reset. Recovery repairs provably or stops and says where (`server/README.md`,
 * "Durability"): a last line that is not a whole record is a torn tail, cut by bytes; a whole
 * last record missing its `\n` gets it back; any other bad line is corrupt and nothing after it
 * is read; blank lines are skipped but counted.
 */
import {
  appendFileSync,
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { jsonErrorMessage } from '../mocks/core/index.ts'
import { nonEmpty, z } from '../mocks/model/zod.ts'

export interface LogProblem {
  file: string
  /** 1-based. */
  line: number
  /** Byte offset of the line's start. */
  offset: number
  reason: string
}

export interface LogContents {
  /** The records before any problem. */
  records: LogRecord[]
  /** Bytes up to the last `\n` before the first torn or corrupt line, or the whole file. */
  validBytes: number
  size: number
  /** A last line with no `\n` that is no record (a crash mid-append): cut at `validBytes`. */
  tornTail: boolean
  /** The last record is whole but its `\n` is missing: add it before appending. */
  unterminated: boolean
  /** The first complete line that is not a valid record: never skipped. */
  corrupt?: LogProblem
}

const writeSchema = z.strictObject({
  time: z.iso.datetime({ offset: true }),
  method: nonEmpty(),
  url: nonEmpty(),
  headers: z.record(z.string(), z.string()),
  body: z.nullable(z.string()),
})

const resetSchema = z.strictObject({
  reset: z.strictObject({
    scenario: nonEmpty(),
    seed: z.number().check(z.int(), z.gte(0)),
    snapshot: z.exactOptional(nonEmpty()),
  }),
})

export type WriteRecord = z.infer<typeof writeSchema>
export type LogRecord = WriteRecord | z.infer<typeof resetSchema>

const NEWLINE = 0x0a
/** Fatal: invalid UTF-8 is an error, not U+FFFD. Each call without `stream` starts afresh. */
const utf8 = new TextDecoder('utf-8', { fatal: true })
const LOG_SUFFIX = '.jsonl'

/** The name of `session`'s log: `logFileName('qa')` is `'cWE.jsonl'`. */
export function logFileName(session: string): string {
  return `${Buffer.from(session).toString('base64url')}${LOG_SUFFIX}`
}

/** The session a log's file name encodes, or `undefined` for a file that is no session's log. */
export function sessionOfLogFile(name: string): string | undefined {
  if (!name.endsWith(LOG_SUFFIX)) return undefined
  const session = Buffer.from(name.slice(0, -LOG_SUFFIX.length), 'base64url').toString('utf8')
  return logFileName(session) === name ? session : undefined
}

/**
 * What one line holds: a record, or why it is not one. `cut` says the bytes could be a
 * record line cut short (they end in the middle of a UTF-8 character, or are not JSON).
 */
export type DecodedLine =
  | { ok: true; record: LogRecord }
  | { ok: false; reason: string; cut: boolean }

function isBlank(line: Uint8Array): boolean {
  return line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)
}

function recordOf(json: unknown): DecodedLine {
  const isReset = json !== null && typeof json === 'object' && 'reset' in json
  const parsed = (isReset ? resetSchema : writeSchema).safeParse(json)
  if (parsed.success) return { ok: true, record: parsed.data as LogRecord }
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'the line'}: ${issue.message}`)
  const more = parsed.error.issues.length > 3 ? `, and ${parsed.error.issues.length - 3} more` : ''
  return {
    ok: false,
    reason: `not a ${isReset ? 'reset' : 'write'} record (${issues.join('; ')}${more})`,
    cut: false,
  }
}

/** The record one line holds (without its `\n`), or the reason it holds none. */
export function decodeLine(bytes: Uint8Array): DecodedLine {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    // In streaming mode an unfinished last character waits for more bytes instead of failing.
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
    } catch {
      return { ok: false, reason: 'not valid UTF-8', cut: false }
    }
    return { ok: false, reason: 'ends in the middle of a UTF-8 character', cut: true }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { ok: false, reason: `not valid JSON (${jsonErrorMessage(error)})`, cut: true }
  }
  return recordOf(json)
}

/** Reads a log's bytes; never throws: a torn tail and the first corrupt line are reported. */
export function parseLog(
  bytes: Uint8Array,
  file: string,
  refuse?: (record: LogRecord) => string | undefined,
): LogContents {
  const contents: LogContents = {
    records: [],
    validBytes: 0,
    size: bytes.length,
    tornTail: false,
    unterminated: false,
  }
  let offset = 0
  let line = 0
  while (offset < bytes.length) {
    line++
    const newline = bytes.indexOf(NEWLINE, offset)
    const last = newline === -1
    const end = last ? bytes.length : newline
    const text = bytes.subarray(offset, end)
    let decoded = isBlank(text) ? undefined : decodeLine(text)
    // A record `refuse` gives a reason for (its operation unknown) is as corrupt as a bad line.
    const refused = decoded?.ok ? refuse?.(decoded.record) : undefined
    if (refused) decoded = { ok: false, reason: refused, cut: false }
    if (last) {
      if (decoded?.ok) {
        contents.records.push(decoded.record)
        contents.validBytes = bytes.length
        contents.unterminated = true
      } else if (decoded === undefined || decoded.cut) {
        contents.tornTail = true
      } else {
        contents.corrupt = { file, line, offset, reason: decoded.reason }
      }
      break
    }
    if (decoded !== undefined && !decoded.ok) {
      contents.corrupt = { file, line, offset, reason: decoded.reason }
      break
    }
    if (decoded) contents.records.push(decoded.record)
    offset = newline + 1
    contents.validBytes = offset
  }
  return contents
}

/** {@link parseLog} of the file's bytes; throws when the file cannot be read. */
export function readLogFile(file: string): LogContents {
  return parseLog(readFileSync(file), file)
}

/**
 * The line of `record`: `JSON.stringify` escapes every control character and lone surrogate,
 * so the line holds no other `\n` and is valid UTF-8.
 */
export function encodeRecord(record: LogRecord): string {
  return `${JSON.stringify(record)}\n`
}

/**
 * Makes the end of a log ready for the next append: cuts a torn tail at `validBytes` or ends an
 * unterminated last record (not with a corrupt line: that is for `state repair`). Returns
 * whether it changed the file; throws if the file's size changed since `contents` was read.
 */
export function cutTornTail(file: string, contents: LogContents): boolean {
  if (contents.corrupt || !(contents.tornTail || contents.unterminated)) return false
  const fd = openSync(file, 'r+')
  try {
    const size = fstatSync(fd).size
    if (size !== contents.size) {
      throw new Error(
        `Failed to repair the end of ${file}: it is ${size} bytes long, not the ${contents.size} read (written meanwhile?)`,
      )
    }
    if (contents.tornTail) ftruncateSync(fd, contents.validBytes)
    else writeSync(fd, '\n', size)
  } finally {
    closeSync(fd)
  }
  return true
}

export interface LogFiles {
  append(file: string, text: string, sync: boolean): void
  /** 0 when it does not exist. */
  size(file: string): number
  truncate(file: string, size: number): void
  /** Replaces the content at once (a temporary file renamed over it). */
  replace(file: string, text: string, sync: boolean): void
  remove(file: string): void
  /** Marks the file used now (its modification time). */
  touch(file: string): void
}

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/** Runs `action`, ignoring a file that does not exist. */
function unlessMissing<T>(action: () => T, fallback: T): T {
  try {
    return action()
  } catch (error) {
    if (isMissing(error)) return fallback
    throw error
  }
}

/** fsync of a file or a folder that may have been removed since. */
export function syncToDisk(path: string): void {
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

export const nodeLogFiles: LogFiles = {
  append(file, text, sync) {
    if (!sync) return appendFileSync(file, text)
    const fd = openSync(file, 'a')
    try {
      writeFileSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  },
  size: (file) => unlessMissing(() => statSync(file).size, 0),
  truncate: (file, size) => unlessMissing(() => truncateSync(file, size), undefined),
  replace(file, text, sync) {
    const temporary = `${file}.tmp`
    try {
      writeFileSync(temporary, text)
      if (sync) syncToDisk(temporary)
      renameSync(temporary, file)
    } catch (error) {
      rmSync(temporary, { force: true })
      throw error
    }
  },
  remove: (file) => rmSync(file, { force: true }),
  touch(file) {
    const now = new Date()
    unlessMissing(() => utimesSync(file, now, now), undefined)
  },
}
