/**
 * @module
 * Zod issues as the short, field-first `details` the backend sends ("refreshToken must be a
 * string").
 */
import { z } from '../model/zod.ts'
import { badRequest, type SandboxError } from './errors.ts'

/** Where "a <type>" does not read well. */
const EXPECTED: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'an array',
  int: 'an integer',
}

function describeIssue(issue: z.core.$ZodIssue, subject: string): string[] {
  const field = issue.path.length > 0 ? issue.path.join('.') : subject
  // A schema's own rule (`z.int('must be from 1 to 200')`) is said as it is for a value given.
  const own = issue.code !== 'custom' && issue.input !== undefined
  if (own && issue.message.startsWith('must ')) return [`${field} ${issue.message}`]
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? [`${field} is required`]
        : [`${field} must be ${EXPECTED[issue.expected] ?? `a ${issue.expected}`}`]
    case 'unrecognized_keys':
      return issue.keys.map((key) => `property ${[...issue.path, key].join('.')} should not exist`)
    case 'invalid_value':
      return issue.input === undefined
        ? [`${field} is required`]
        : [`${field} must be one of: ${issue.values.map(String).join(', ')}`]
    case 'invalid_format':
      return [`${field} ${formatRule(issue)}`]
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return [`${field} should not be empty`]
      if (issue.origin === 'string')
        return [`${field} must be longer than or equal to ${issue.minimum} characters`]
      if (issue.origin === 'array' || issue.origin === 'set')
        return [`${field} must contain at least ${issue.minimum} elements`]
      return [`${field} must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`]
    case 'too_big':
      if (issue.origin === 'string')
        return [`${field} must be shorter than or equal to ${issue.maximum} characters`]
      if (issue.origin === 'array' || issue.origin === 'set')
        return [`${field} must contain no more than ${issue.maximum} elements`]
      return [`${field} must not be greater than ${issue.maximum}`]
    case 'not_multiple_of':
      return [`${field} must be a multiple of ${issue.divisor}`]
    case 'invalid_union':
      return [`${field} does not match any of the allowed forms`]
    case 'invalid_key':
      return [`${field} has a key that is not allowed`]
    case 'invalid_element':
      return [`${field} has an element that is not allowed`]
    case 'custom':
      // A refinement's message is the sandbox's own (zod has none for it).
      return [`${field}: ${issue.message}`]
  }
}

/** A schema's own message (`.regex(pattern, 'must be ...')`) is quoted, zod's defaults never. */
function formatRule(issue: z.core.$ZodIssueInvalidStringFormat): string {
  if (issue.format === 'regex') {
    const own = issue.message.startsWith('Invalid') ? undefined : issue.message
    return own ?? `must match the pattern ${(issue as { pattern?: string }).pattern}`
  }
  const rule = issue as { prefix?: string; suffix?: string; includes?: string }
  switch (issue.format) {
    case 'email':
      return 'must be an email'
    case 'datetime':
      return 'must be a valid ISO 8601 date string'
    case 'starts_with':
      return `must start with "${rule.prefix}"`
    case 'ends_with':
      return `must end with "${rule.suffix}"`
    case 'includes':
      return `must contain "${rule.includes}"`
    default:
      return `must be a valid ${FORMAT_NAMES[issue.format] ?? issue.format}`
  }
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  date: 'ISO 8601 date (YYYY-MM-DD)',
  time: 'ISO 8601 time',
  duration: 'ISO 8601 duration',
  url: 'URL',
  uuid: 'UUID',
  guid: 'GUID',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  base64: 'base64 string',
  base64url: 'base64url string',
  jwt: 'JSON Web Token',
  lowercase: 'lower-case string',
  uppercase: 'upper-case string',
}

export function describeIssues(issues: readonly z.core.$ZodIssue[], subject: string): string[] {
  return issues.flatMap((issue) => describeIssue(issue, subject))
}

/** Validates `value`, or returns the 400 that lists every problem. */
export function parseInput<Schema extends z.core.$ZodType>(
  schema: Schema,
  value: unknown,
  subject: string,
): { ok: true; data: z.infer<Schema> } | { ok: false; error: SandboxError } {
  const result = z.safeParse(schema, value, { reportInput: true })
  if (result.success) return { ok: true, data: result.data }
  const details = describeIssues(result.error.issues, subject)
  return { ok: false, error: badRequest('Validation failed', details) }
}
