/**
 * @module
 * `platform-sandbox examples from-har <file.har>`: recorded exchanges added to the
 * `<operationId>.json` files of `spec/examples/` (or another folder).
 */
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkWritable, readJsonFile, UsageError } from '../../server/commands/input.ts'
import { type RecordedExampleFile, recordedExampleFileSchema } from '../../spec/examples/index.ts'
import { examplesFromHar } from '../diff/examples-from-har.ts'
import type { HarEntry } from '../har.ts'
import { readRecordings } from '../replay/recordings.ts'

export interface ExamplesCommandOptions {
  operation?: string
  outDir: string
}

function readExisting(dir: string, operationId: string): RecordedExampleFile | undefined {
  const path = join(dir, `${operationId}.json`)
  if (!existsSync(path)) return undefined
  const parsed = recordedExampleFileSchema.safeParse(readJsonFile(path))
  if (parsed.success) return parsed.data
  const problem = parsed.error.issues[0]?.message
  throw new UsageError(`${path}: not an examples file (${problem}); nothing written`)
}

function createFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
  } catch (error) {
    throw new UsageError(`${dir}: cannot be created (${(error as NodeJS.ErrnoException).code})`)
  }
  console.log(`${dir}: created`)
}

/** Converts `harPath` and writes the example files; every file is checked before any is written. */
export function runExamplesFromHar(harPath: string, options: ExamplesCommandOptions): void {
  const document = readJsonFile(harPath)
  try {
    if (document === null || typeof document !== 'object' || !('log' in document)) {
      throw new Error('not a HAR document (no "log")')
    }
    readRecordings(document)
  } catch (error) {
    throw new UsageError(`${harPath}: ${(error as Error).message}`)
  }
  if (existsSync(options.outDir) && !statSync(options.outDir).isDirectory()) {
    throw new UsageError(`${options.outDir}: cannot be written (not a directory)`)
  }
  const entries = (document as { log: { entries: HarEntry[] } }).log.entries
  const existing = new Map<string, RecordedExampleFile>()
  const result = examplesFromHar(entries, existing, options)
  // A second pass with the files already on disk, so new examples are added to them.
  for (const operationId of result.files.keys()) {
    const file = readExisting(options.outDir, operationId)
    if (file) existing.set(operationId, file)
  }
  const { files, added, skipped } = examplesFromHar(entries, existing, options)
  if (added.size > 0 && !existsSync(options.outDir)) createFolder(options.outDir)
  for (const operationId of added.keys()) checkWritable(join(options.outDir, `${operationId}.json`))
  for (const [operationId, count] of added) {
    const path = join(options.outDir, `${operationId}.json`)
    const temporary = `${path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(files.get(operationId), null, 2)}\n`)
    renameSync(temporary, path)
    console.log(`${path}: ${count} example${count === 1 ? '' : 's'} added`)
  }
  if (added.size === 0) console.log('No new examples.')
  for (const line of skipped) console.log(`  skipped ${line}`)
}
