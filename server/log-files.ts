/**
 * @module
 * The file operations of a state directory: the real ones, or a test's that fail on cue.
 */
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'

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
