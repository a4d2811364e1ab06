/**
 * @module
 * One zod issue of a scenario record as a line a person can act on:
 * `bookings[3].status: expected one of pending, accepted, declined, paid, refunded, got "cancelled"`.
 */
import type { z } from '../model/zod.ts'

function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** Edit distance, to suggest the field a typo meant. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]!
}

function suggestion(key: string, fields: readonly string[]): string {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const field of fields) {
    const d = distance(key.toLowerCase(), field.toLowerCase())
    if (d < bestDistance) [best, bestDistance] = [field, d]
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3))
    ? `unknown field, did you mean "${best}"?`
    : `unknown field (fields: ${fields.join(', ')})`
}

/**
 * Lines for one issue, each `<record><path>: <problem>`; `fields` are the fields the
 * record's schema knows at the issue's path (for typo suggestions).
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  record: string,
  fieldsAt: (path: PropertyKey[]) => readonly string[],
): string[] {
  const at = (path: PropertyKey[]) =>
    record +
    path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')
  const where = at(issue.path)
  const input = (issue as { input?: unknown }).input
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined
        ? [`${where}: required (${issue.expected})`]
        : [`${where}: expected ${issue.expected}, got ${shown(input)}`]
    case 'invalid_value':
      return [
        issue.values.length === 1
          ? `${where}: expected ${shown(issue.values[0])}, got ${shown(input)}`
          : `${where}: expected one of ${issue.values.map(String).join(', ')}, got ${shown(input)}`,
      ]
    case 'invalid_format': {
      if (issue.format === 'regex') return [`${where}: ${issue.message}, got ${shown(input)}`]
      const { prefix, suffix, includes } = issue as unknown as Record<string, string>
      const formats: Record<string, string> = {
        email: 'an e-mail address',
        datetime: 'an ISO 8601 date-time such as 2026-06-01T09:00:00.000Z',
        starts_with: `a string starting with "${prefix}"`,
        ends_with: `a string ending with "${suffix}"`,
        includes: `a string containing "${includes}"`,
      }
      const expected = formats[issue.format] ?? `a valid ${issue.format}`
      return [`${where}: expected ${expected}, got ${shown(input)}`]
    }
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return [`${where}: must not be empty`]
      if (issue.origin === 'array') return [`${where}: expected at least ${issue.minimum} items`]
      return [`${where}: expected at least ${issue.minimum}, got ${shown(input)}`]
    case 'too_big':
      if (issue.origin === 'array') return [`${where}: expected at most ${issue.maximum} items`]
      if (issue.origin === 'string')
        return [
          `${where}: expected at most ${issue.maximum} characters, got ${String(input).length}`,
        ]
      return [`${where}: expected at most ${issue.maximum}, got ${shown(input)}`]
    case 'unrecognized_keys':
      return issue.keys.map(
        (key) => `${at([...issue.path, key])}: ${suggestion(key, fieldsAt(issue.path))}`,
      )
    default:
      return [`${where}: ${issue.message}`]
  }
}
