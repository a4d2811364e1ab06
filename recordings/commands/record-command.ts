/**
 * @module
 * `platform-sandbox record --target <url>`: the recorder on the command line.
 */
import { existsSync } from 'node:fs'
import { exitIfPortInUse } from '../../server/banner.ts'
import {
  checkWritable,
  parseTargetUrl,
  readJsonFile,
  UsageError,
} from '../../server/commands/input.ts'
import type { HarEntry } from '../har.ts'
import { createHarFile } from '../record/har-file.ts'
import { startRecordProxy } from '../record/record-proxy.ts'
import { readRecordings } from '../replay/recordings.ts'

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
  const document = readJsonFile(path)
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
  const file = createHarFile(options.out, existingEntries(options.out))
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
    const count = file.entries.length
    console.log(`Recorded ${count} exchange${count === 1 ? '' : 's'} in ${options.out}.`)
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
