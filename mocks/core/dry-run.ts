/**
 * @module
 * The strict `dryRun` reader: a dry run taken for a write is the worst mistake a sandbox can
 * make, so anything but one `dryRun` of `true` or `false` is refused (a repeat, `DRYRUN`,
 * `dry_run`, `dryRun[]`, another value).
 */
import { badRequest } from './errors.ts'

const NAME = 'dryRun'

/** `dryRun`, `DRYRUN`, `dry-run`, `dry_run`, `dryRun[]`, `dryRun[0]`... */
function looksLikeDryRun(key: string): boolean {
  return (
    withoutIndex(key)
      .replace(/[-_\s]/g, '')
      .toLowerCase() === 'dryrun'
  )
}

/**
 * The key without a trailing `[...]` that holds no `]`, as `/\[[^\]]*\]$/` would strip it,
 * in one pass: that regular expression tries again from every `[`, so a key of thousands of
 * `[` cost quadratic time, and it runs on every request.
 */
function withoutIndex(key: string): string {
  if (!key.endsWith(']')) return key
  // The bracket starts after the `]` before the last one, at the first `[` there.
  const previous = key.lastIndexOf(']', key.length - 2)
  const open = key.indexOf('[', previous + 1)
  return open === -1 ? key : key.slice(0, open)
}

/**
 * `true` or `false` from the query, `undefined` when no form of `dryRun` is present.
 * Throws a 400 that names the problem otherwise.
 */
export function readDryRunQuery(query: URLSearchParams): boolean | undefined {
  const values: string[] = []
  for (const [key, value] of query) {
    if (key === NAME) {
      values.push(value)
      continue
    }
    if (looksLikeDryRun(key)) {
      throw badRequest('Validation failed', [
        `query parameter "${key}" is not recognised: send exactly one dryRun=true or dryRun=false`,
      ])
    }
  }
  if (values.length === 0) return undefined
  if (values.length > 1) {
    throw badRequest('Validation failed', [
      `dryRun must be given once, got ${values.length} values (${values.join(', ')})`,
    ])
  }
  const [value] = values
  if (value === 'true') return true
  if (value === 'false') return false
  throw badRequest('Validation failed', ['dryRun must be one of: true, false'])
}
