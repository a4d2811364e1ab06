/**
 * @module
 * A HAR file that grows one entry at a time and is always whole on disk: each write
 * goes to a temporary file beside it, then replaces it by rename. Writes that pile up
 * while one is in progress are folded into the next, and each entry is serialised once
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

/** A HAR file at `path` that starts with `entries` (those already in the file). */
export function createHarFile(path: string, entries: HarEntry[] = []): HarFile {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  const [head, tail] = frame()
  const lines = entries.map((entry) => JSON.stringify(entry))
  let writing: Promise<void> | undefined
  let dirty = false

  async function writeAll(): Promise<void> {
    while (dirty) {
      dirty = false
      await writeFile(temporary, head + lines.join(',\n') + tail)
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
      lines.push(JSON.stringify(entry))
      schedule().catch((error: unknown) => {
        console.error(`platform-sandbox: failed to write ${path}:`, error)
      })
    },
    async flush() {
      while (writing) await writing
    },
  }
}
