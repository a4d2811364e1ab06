/**
 * @module
 * Saved snapshots and uploaded scenarios in a state directory, a JSON file each
 * (`<dir>/snapshots/<name>.json`, `<dir>/scenarios/<name>.json`): written whole (a temporary file
 * renamed over it; a failure is a 503 with nothing changed), removed when deleted, read on start.
 * A snapshot file holds the scenario and seed it descends from (never another snapshot) and the
 * records it adds, changes and removes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Kept, KeptByName, SavedSnapshotRecord } from '../mocks/core/index.ts'
import { SandboxError } from '../mocks/core/index.ts'
import { collectionNames } from '../mocks/model/schemas.ts'
import { nonEmpty, z } from '../mocks/model/zod.ts'
import { type SnapshotChanges, snapshotChanges } from '../mocks/scenarios/snapshot-file.ts'
import type { LogFiles } from './state-log.ts'

const STORAGE_RETRY_AFTER_SECONDS = 5
const FORMAT_VERSION = 1

/** A 503 for what the state directory could not write: nothing was changed. */
export function storageError(error: unknown): SandboxError {
  const { code, message } = error as NodeJS.ErrnoException
  return new SandboxError(
    503,
    'The state directory could not record this write: nothing was changed, try again later',
    [`storage error: ${code ?? message}`],
    { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
  )
}

/** Runs a file operation whose failure is a `storageError`. */
export function storing<T>(action: () => T): T {
  try {
    return action()
  } catch (error) {
    throw storageError(error)
  }
}

/** How one kind is written, and read back from its file's JSON (its problems, if it is none). */
interface KeptFormat<T> {
  encode(value: T): string
  read(json: unknown, name: string, source: string): Kept<T>
}

const toJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

export const scenarioFormat: KeptFormat<unknown> = {
  encode: toJson,
  read: (value, _, source) => ({ source, value }),
}

const changeList = <T extends z.ZodMiniType>(item: T) =>
  z.optional(z.partialRecord(z.enum(collectionNames as [string, ...string[]]), z.array(item)))

const snapshotSchema = z.strictObject({
  version: z.literal(FORMAT_VERSION),
  name: z.string(),
  scenario: nonEmpty(),
  seed: z.number().check(z.int(), z.gte(0)),
  session: z.string(),
  savedAt: z.string(),
  records: z.number().check(z.int(), z.gte(0)),
  idSequence: z.number().check(z.int(), z.gte(0)),
  add: changeList(z.record(z.string(), z.unknown())),
  change: changeList(z.record(z.string(), z.unknown())),
  remove: changeList(z.string()),
})

export const snapshotFormat: KeptFormat<SavedSnapshotRecord> = {
  encode: ({ info, idSequence, changes }) =>
    toJson({ version: FORMAT_VERSION, ...info, idSequence, ...changes }),
  read(json, name, source) {
    const failed = (...problems: string[]) => ({
      source,
      problems: problems.map((line) => `${source}: ${line}`),
    })
    const parsed = snapshotSchema.safeParse(json)
    if (!parsed.success) {
      return failed(
        ...parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || 'the file'}: ${issue.message}`,
        ),
      )
    }
    const { version: _, idSequence, add, change, remove, ...info } = parsed.data
    if (info.name !== name) return failed(`name: "${info.name}" does not match the file name`)
    // The records as the file holds them; rebuilding the snapshot checks them against the schemas.
    const changes = snapshotChanges({ add, change, remove } as SnapshotChanges)
    return { source, value: { info, idSequence, changes } }
  },
}

/** A file of a kept folder: a document, its problems, or a save cut short by a crash. */
export type KeptFile<T> = Kept<T> | { source: string; temporary: true }

/** The files among `names` of `folder`, in name order, each read as `format` says. */
export function readKeptFiles<T>(
  folder: string,
  names: string[],
  format: KeptFormat<T>,
): KeptFile<T>[] {
  return names.sort().flatMap((entry): KeptFile<T>[] => {
    const source = join(folder, entry)
    if (entry.endsWith('.tmp')) return [{ source, temporary: true }]
    if (!entry.endsWith('.json')) return []
    try {
      return [format.read(JSON.parse(readFileSync(source, 'utf8')), entry.slice(0, -5), source)]
    } catch (error) {
      const problem = (error as NodeJS.ErrnoException).code ? 'cannot be read' : 'not valid JSON'
      return [{ source, problems: [`${source}: ${problem} (${(error as Error).message})`] }]
    }
  })
}

/** What `folder` (made if missing) keeps, written through `files`; a start removes temporaries. */
export function keptFiles<T>(
  folder: string,
  format: KeptFormat<T>,
  files: LogFiles,
  sync: boolean,
): KeptByName<T> {
  mkdirSync(folder, { recursive: true })
  const fileOf = (name: string) => join(folder, `${name}.json`)
  return {
    where: folder,
    list: async () =>
      readKeptFiles(folder, readdirSync(folder), format).flatMap((file) => {
        if (!('temporary' in file)) return [file]
        rmSync(file.source, { force: true })
        return []
      }),
    save: (name, value) => storing(() => files.replace(fileOf(name), format.encode(value), sync)),
    delete: (name) => storing(() => files.remove(fileOf(name))),
  }
}
