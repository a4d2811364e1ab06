/**
 * Plain-JSON helpers of the conformance runner: deep equality, partial record patterns, and
 * the normalisation that makes two runtimes' answers comparable (access tokens and
 * timestamps differ from run to run, nothing else may).
 *
 * @module
 */
import { dequal } from 'dequal'
import { NOT_NULL } from '../../spec/cases/build.ts'
import type { RecordPattern } from '../../spec/cases/types.ts'

const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/

/** `value` with every JWT replaced by `<jwt>` and every ISO timestamp by `<timestamp>`. */
export function normalizeBody(value: unknown): unknown {
  if (typeof value === 'string') {
    if (JWT.test(value)) return '<jwt>'
    if (ISO_TIMESTAMP.test(value)) return '<timestamp>'
    return value
  }
  if (Array.isArray(value)) return value.map(normalizeBody)
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, normalizeBody(item)]),
    )
  }
  return value
}

/**
 * Structural equality of JSON values (`dequal`); object key order does not matter. Both
 * sides are JSON values here: parsed answers, and expectations normalised by `normalizeBody`.
 */
export const deepEqual = dequal

/**
 * Whether `record` matches `pattern`: every key of the pattern matches, nested objects
 * partially, `NOT_NULL` any value but `null`/`undefined`, anything else exactly.
 */
export function matchesPattern(record: unknown, pattern: RecordPattern): boolean {
  if (!isPlainObject(record)) return false
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = record[key]
    if (expected === NOT_NULL) return actual !== null && actual !== undefined
    if (isPlainObject(expected)) return matchesPattern(actual, expected)
    return deepEqual(actual, expected)
  })
}

/** Short JSON for messages. */
export function preview(value: unknown, limit = 300): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > limit ? `${text.slice(0, limit)}…` : text
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
