/**
 * @module
 * The checks of the commands' input, each a one-line `UsageError` naming the file or value and
 * the problem (exit code 2).
 */
import { accessSync, constants, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { jsonErrorMessage } from '../../mocks/core/index.ts'
import { utf8Text } from '../../recordings/replay/read-file.ts'

/** Bad input on the command line; the CLI prints the message and exits with code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export function parseTargetUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`target "${value}" is not a URL: give http://host[:port][/prefix]`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`target "${value}" is not an http(s) URL (protocol ${url.protocol})`)
  }
  return url
}

/**
 * The parsed JSON of a file (of `text`, when the caller has read it already), or a `UsageError`
 * naming the file and what is wrong.
 */
export function readJsonFile(path: string, text = readTextFile(path)): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw notJson(path, error, text)
  }
}

/** The text of `path`; a `UsageError` naming it when it cannot be read. */
export function readTextFile(path: string): string {
  try {
    return utf8Text(readFileSync(path))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`${path}: cannot be read (${code === 'ENOENT' ? 'no such file' : code})`)
  }
}

/** The `UsageError` for the file `path` whose `text` `JSON.parse` refused with `error`. */
export function notJson(path: string, error: unknown, text?: string): UsageError {
  return new UsageError(`${path}: is not valid JSON (${jsonErrorMessage(error, text)})`)
}

/** Checks that `path` can be written (an existing file, or a new one in a writable folder). */
export function checkWritable(path: string): void {
  const absolute = resolve(path)
  try {
    if (statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`${path}: cannot be written (it is a directory)`)
    }
    accessSync(dirname(absolute), constants.W_OK)
    if (statSync(absolute, { throwIfNoEntry: false })) accessSync(absolute, constants.W_OK)
  } catch (error) {
    if (error instanceof UsageError) throw error
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(
      `${path}: cannot be written (${code === 'ENOENT' ? 'its folder does not exist' : code})`,
    )
  }
}

/** Writes `text` to `path` through a temporary file renamed over it: `path` is always whole. */
export function writeWhole(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}
