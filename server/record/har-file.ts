/**
 * @module
 * A HAR file that grows one entry at a time and is always whole on disk: each write
 * goes to a temporary file beside it, then replaces it by rename. Entries that arrive
 * while one write is in progress or within `intervalMs` of the last are folded into the
 * next write, and each entry is serialised once
 * (one line per entry), so a long recording costs a file copy per write, not a
 * re-serialisation of everything.
 */
import { rename, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { createHar, type HarEntry } from '../../mocks/recordings/har.ts'

export interface HarFile {
  readonly path: string
  readonly entries: readonly HarEntry[]
  append(entry: HarEntry): void
  /** Resolves once every appended entry is on disk. */
  flush(): Promise<void>
}

/** The document around the entries: `{"log":{...,"entries":[` and `]}}`. */
function frame(): [string, string] {
  const text = JSON.stringify(createHar([]))
  const at = text.lastIndexOf('[]')
  return [`${text.slice(0, at + 1)}\n`, `\n${text.slice(at + 1)}\n`]
}

/**
 * A HAR file at `path` that starts with `entries` (those already in the file). It is
 * rewritten at most every `intervalMs` (default 100 ms) while entries keep coming, and at
 * once on `flush()`.
 */
export function createHarFile(path: string, entries: HarEntry[] = [], intervalMs = 100): HarFile {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  const [head, tail] = frame()
  const lines = entries.map((entry) => JSON.stringify(entry))
  let writing: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let dirty = false
  let lastWrite = 0

  async function writeOnce(): Promise<void> {
    dirty = false
    await writeFile(temporary, head + lines.join(',\n') + tail)
    await rename(temporary, path)
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
        if (dirty) schedule()
      })
  }

  function schedule(): void {
    dirty = true
    if (writing || timer) return
    const wait = lastWrite + intervalMs - Date.now()
    if (wait <= 0) start()
    else timer = setTimeout(start, wait)
  }

  return {
    path,
    entries,
    append(entry) {
      entries.push(entry)
      lines.push(JSON.stringify(entry))
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
