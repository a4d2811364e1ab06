/**
 * @module
 * A HAR file growing an entry at a time, always whole on disk: each write goes to a temporary
 * file renamed over it. A write after the first copies the file in the kernel and writes only the
 * new entries over its closing brackets: one `JSON.stringify` per exchange.
 */
import { copyFile, open, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { createHar, type HarEntry } from '../har.ts'

export interface HarFile {
  readonly entries: readonly HarEntry[]
  append(entry: HarEntry): void
  /** Resolves once every appended entry is on disk. */
  flush(): Promise<void>
}

/** The document around the entries: `{"log":{...,"entries":[` and `]}}`. */
const [BEFORE, AFTER] = JSON.stringify(createHar([])).split('[]')
const [HEAD, TAIL] = [`${BEFORE}[\n`, `\n]${AFTER}\n`]

/**
 * A HAR file at `path` starting with `entries`, written at most every 100 ms or 5 times the
 * last write's duration (a large file's copy must not take the machine), at once on `flush()`.
 */
export function createHarFile(path: string, entries: HarEntry[] = []): HarFile {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  const tailBytes = Buffer.byteLength(TAIL)
  let pending = entries.map((entry) => JSON.stringify(entry))
  let written = 0
  let count = 0
  let writing: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastWrite = 0
  let lastDuration = 0
  let failed = false

  async function writeOnce(): Promise<void> {
    const lines = pending
    pending = []
    const started = Date.now()
    let size: number
    try {
      if (written === 0) {
        const text = HEAD + lines.join(',\n') + TAIL
        await writeFile(temporary, text)
        size = Buffer.byteLength(text)
      } else {
        const text = `${count > 0 ? ',\n' : ''}${lines.join(',\n')}${TAIL}`
        await copyFile(path, temporary)
        const handle = await open(temporary, 'r+')
        try {
          const bytes = Buffer.from(text)
          await handle.write(bytes, 0, bytes.length, written - tailBytes)
          size = written - tailBytes + bytes.length
          await handle.truncate(size)
        } finally {
          await handle.close()
        }
      }
      await rename(temporary, path)
      written = size
      count += lines.length
      failed = false
    } catch (error) {
      // The file on disk is still whole; the next write makes it anew from every entry.
      failed = true
      pending = entries.map((entry) => JSON.stringify(entry))
      written = 0
      count = 0
      await rm(temporary, { force: true })
      throw error
    } finally {
      lastDuration = Date.now() - started
    }
  }

  function start(): void {
    timer = undefined
    writing = writeOnce()
      .catch((error: unknown) => {
        console.error(`platform-sandbox: failed to write ${path}:`, error)
      })
      .finally(() => {
        writing = undefined
        lastWrite = Date.now()
        // After a failure, the next entry tries again (so `flush` does not loop).
        if (pending.length > 0 && !failed) schedule()
      })
  }

  function schedule(): void {
    if (writing || timer) return
    const wait = lastWrite + Math.max(100, 5 * lastDuration) - Date.now()
    if (wait <= 0) start()
    else timer = setTimeout(start, wait)
  }

  return {
    entries,
    append(entry) {
      entries.push(entry)
      pending.push(JSON.stringify(entry))
      schedule()
    },
    async flush() {
      while (writing || timer) {
        if (timer) {
          clearTimeout(timer)
          start()
        }
        await writing
      }
    },
  }
}
