/**
 * @module
 * A HAR file that grows one entry at a time and is always whole on disk: each write
 * goes to a temporary file beside it, then replaces it by rename. Writes that pile up
 * while one is in progress are folded into the next.
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

/** A HAR file at `path` that starts with `entries` (those already in the file). */
export function createHarFile(path: string, entries: HarEntry[] = []): HarFile {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  let writing: Promise<void> | undefined
  let dirty = false

  async function writeAll(): Promise<void> {
    while (dirty) {
      dirty = false
      await writeFile(temporary, `${JSON.stringify(createHar(entries), null, 2)}\n`)
      await rename(temporary, path)
    }
  }

  function schedule(): Promise<void> {
    dirty = true
    writing ??= writeAll().finally(() => {
      writing = undefined
    })
    return writing
  }

  return {
    path,
    entries,
    append(entry) {
      entries.push(entry)
      schedule().catch((error: unknown) => {
        console.error(`platform-sandbox: failed to write ${path}:`, error)
      })
    },
    async flush() {
      while (writing) await writing
    },
  }
}
