/**
 * @module
 * `platform-sandbox record --target <url>`: the recorder on the command line.
 */
import { existsSync } from 'node:fs'
import type { HarEntry } from '../../recordings/har.ts'
import { createHarFile } from '../../recordings/record/har-file.ts'
import { startRecordProxy } from '../../recordings/record/record-proxy.ts'
import { readRecordings } from '../../recordings/replay/recordings.ts'
import { exitIfPortInUse } from '../banner.ts'
import { checkWritable, parseTargetUrl, readJsonFile, readTextFile, UsageError } from './input.ts'

export interface RecordCommandOptions {
  target: string
  out: string
  port: number
  host: string
  /** `false` with `--no-redact`, the extra items of `--redact`, else `true`. */
  redact: boolean | string[]
  timeout: number
}

/** Entries already in `path`, so that a new recording appends to them. */
function existingEntries(path: string): HarEntry[] {
  if (!existsSync(path)) return []
  const text = readTextFile(path)
  // An empty file (`touch recording.har`) is a new recording.
  if (text.trim() === '') return []
  const document = readJsonFile(path, text)
  try {
    readRecordings(document)
  } catch (error) {
    throw new UsageError(`${path}: ${(error as Error).message}; not appending to it`)
  }
  const entries = (document as { log?: { entries?: unknown } }).log?.entries
  // An examples file replays, but a recording appends HAR entries: refuse it as it is.
  if (!Array.isArray(entries)) {
    throw new UsageError(`${path}: an examples file, not a HAR document; not appending to it`)
  }
  return entries as HarEntry[]
}

/** Starts recording and resolves once the proxy listens; stops on SIGINT/SIGTERM. */
export async function runRecordCommand(options: RecordCommandOptions): Promise<void> {
  const target = parseTargetUrl(options.target)
  checkWritable(options.out)
  const entries = existingEntries(options.out)
  const before = entries.length
  const file = createHarFile(options.out, entries)
  const proxy = await startRecordProxy({
    target,
    file,
    port: options.port,
    host: options.host,
    redact:
      options.redact === false ? false : { extra: options.redact === true ? [] : options.redact },
    timeoutMs: options.timeout,
  }).catch((error: unknown) => {
    exitIfPortInUse(error, `${options.host}:${options.port}`)
    throw error
  })
  const stop = async (signal: NodeJS.Signals) => {
    console.log(`\n${signal} received: finishing the recording...`)
    try {
      await proxy.close()
    } catch (error) {
      console.error('platform-sandbox: failed to close the recorder:', error)
      process.exit(1)
    }
    // The file is written at the first exchange: without one, it is as it was, or not there.
    const count = file.entries.length - before
    const all = before > 0 ? ` (${file.entries.length} in all)` : ''
    console.log(
      count === 0
        ? `Recorded no exchange; nothing written to ${options.out}.`
        : `Recorded ${count} exchange${count === 1 ? '' : 's'} in ${options.out}${all}.`,
    )
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  console.log(
    [
      `Recording ${target.href}, listening on ${proxy.url}`,
      `  into ${options.out} (${options.redact === false ? 'secrets kept' : 'secrets redacted'})`,
      `  health: ${proxy.url}/__sandbox/health; Ctrl+C stops.`,
    ].join('\n'),
  )
}
