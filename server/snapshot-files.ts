/**
 * @module
 * Saved snapshots in a state directory (`<dir>/snapshots/<name>.json`), written when saved,
 * removed when deleted, restored on start. A file stands on its own: the scenario and seed it
 * descends from (never another snapshot, so no chain leads back to itself; `empty` for an
 * uploaded scenario, which a restart loses) and the records it adds, changes and removes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Sandbox } from '../mocks/core/sandbox.ts'
import type { SavedSnapshotRecord } from '../mocks/core/saved-snapshots.ts'
import { collectionNames } from '../mocks/model/schemas.ts'
import { nonEmpty, z } from '../mocks/model/zod.ts'
import { ScenarioError } from '../mocks/scenarios/compile-scenarios.ts'
import { DEFAULT_EXTENDS } from '../mocks/scenarios/scenario-file.ts'
import { type SnapshotChanges, snapshotChanges } from '../mocks/scenarios/snapshot-file.ts'

const FORMAT_VERSION = 1
/** The suffix of a snapshot file being written (removed on start: a save cut short by a crash). */
const TEMPORARY_SUFFIX = '.tmp'

const changeList = <T extends z.ZodMiniType>(item: T) =>
  z.optional(z.partialRecord(z.enum(collectionNames as [string, ...string[]]), z.array(item)))

const fileSchema = z.strictObject({
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

function toFile({ info, idSequence, changes }: SavedSnapshotRecord): string {
  return `${JSON.stringify({ version: FORMAT_VERSION, ...info, idSequence, ...changes }, null, 2)}\n`
}

/**
 * A file of a snapshots folder: a save cut short by a crash (`temporary`: the file it was to
 * replace is still there), or a snapshot file's record or problems (each starting with its path).
 */
interface SnapshotFile {
  file: string
  temporary?: true
  problems?: string[]
  record?: SavedSnapshotRecord
}

/** The snapshot file `entry` of `folder`, read and parsed. */
function readSnapshotFile(folder: string, entry: string): SnapshotFile {
  const file = join(folder, entry)
  const failed = (...problems: string[]) => ({
    file,
    problems: problems.map((line) => `${file}: ${line}`),
  })
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const problem = (error as NodeJS.ErrnoException).code ? 'cannot be read' : 'not valid JSON'
    return failed(`${problem} (${(error as Error).message})`)
  }
  const parsed = fileSchema.safeParse(json)
  if (!parsed.success) {
    return failed(
      ...parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'the file'}: ${issue.message}`,
      ),
    )
  }
  const { version: _, idSequence, add, change, remove, ...info } = parsed.data
  if (`${info.name}.json` !== entry)
    return failed(`name: "${info.name}" does not match the file name`)
  // The records as the file holds them; rebuilding the snapshot checks them against the schemas.
  const changes = snapshotChanges({ add, change, remove } as SnapshotChanges)
  return { file, record: { info, idSequence, changes } }
}

/** The snapshot files among `names`, in name order, read and parsed. */
export function readSnapshotFiles(folder: string, names: string[]): SnapshotFile[] {
  return names.sort().flatMap((entry): SnapshotFile[] => {
    if (entry.endsWith(TEMPORARY_SUFFIX)) return [{ file: join(folder, entry), temporary: true }]
    return entry.endsWith('.json') ? [readSnapshotFile(folder, entry)] : []
  })
}

/** Rebuilds a snapshot file's record in `sandbox`; its problems, if it cannot be. */
export async function restoreSnapshot(
  sandbox: Sandbox,
  file: string,
  record: SavedSnapshotRecord,
): Promise<string[]> {
  try {
    await sandbox.snapshots.restore(record)
    return []
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error
    return error.problems.map((problem) => `${file}: ${problem}`)
  }
}

/** How snapshot files are written: at once (a temporary file renamed) or not at all. */
export interface SnapshotDisk {
  /** Throws what the write refuses with (the state directory's 503). */
  replace(file: string, text: string): void
  remove(file: string): void
}

/**
 * Restores the snapshots saved in `directory` into `sandbox`, then keeps the files in step
 * with every save and delete: a save or delete the disk refuses changes nothing. Resolves with
 * how many were restored; throws a `ScenarioError` listing every problem of every file.
 */
export async function persistSnapshots(
  directory: string,
  sandbox: Sandbox,
  disk: SnapshotDisk,
): Promise<number> {
  const folder = join(directory, 'snapshots')
  mkdirSync(folder, { recursive: true })
  const fileOf = (name: string) => join(folder, `${name}.json`)
  const problems: string[] = []
  let restored = 0
  for (const snapshot of readSnapshotFiles(folder, readdirSync(folder))) {
    if (snapshot.temporary) rmSync(snapshot.file, { force: true })
    else if (snapshot.problems) problems.push(...snapshot.problems)
    else if (snapshot.record) {
      const failed = await restoreSnapshot(sandbox, snapshot.file, snapshot.record)
      problems.push(...failed)
      if (failed.length === 0) restored++
    }
  }
  if (problems.length > 0) {
    throw new ScenarioError(
      `Failed to restore the saved snapshots of ${folder} (fix or remove the file)`,
      problems,
    )
  }

  // Scenarios there are now come back on the next start (built-in and files); uploaded ones do not.
  const lasting = new Set(Object.keys(sandbox.scenarios))
  const snapshots = sandbox.snapshots
  const save = snapshots.save.bind(snapshots)
  const remove = snapshots.delete.bind(snapshots)
  const saved = (name: string) => snapshots.list().some((snapshot) => snapshot.name === name)
  snapshots.save = async (name, options) => {
    // What a replacing save the disk refuses puts back.
    const previous = options?.replace && saved(name) ? await snapshots.record(name) : undefined
    const info = await save(name, options)
    const { scenario, seed } = snapshots.get(name)
    const base =
      lasting.has(scenario) || !lasting.has(DEFAULT_EXTENDS)
        ? undefined
        : { scenario: DEFAULT_EXTENDS, seed }
    try {
      disk.replace(fileOf(name), toFile(await snapshots.record(name, base)))
    } catch (error) {
      remove(name)
      if (previous) await snapshots.restore(previous)
      throw error
    }
    return info
  }
  snapshots.delete = (name) => {
    if (saved(name)) disk.remove(fileOf(name))
    return remove(name)
  }
  return restored
}
