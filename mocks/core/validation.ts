/**
 * @module
 * Turns zod issues into the short, field-first messages the backend sends in
 * `details` (for example "refreshToken must be a string").
 */
import type { z } from 'zod'
import { badRequest, type SandboxError } from './errors.ts'

/** How a detail names an expected type, where "a <type>" does not read well. */
const EXPECTED: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'an array',
  int: 'an integer',
}

function describeIssue(issue: z.core.$ZodIssue, subject: string): string[] {
  const field = issue.path.length > 0 ? issue.path.join('.') : subject
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
      return [
        issue.format === 'email'
          ? `${field} must be an email`
          : // A pattern that says its rule: `.regex(PATTERN, 'must have two segments')`.
            issue.format === 'regex' && /^(must|should) /.test(issue.message)
            ? `${field} ${issue.message}`
            : issue.format === 'datetime'
              ? `${field} must be a valid ISO 8601 date string`
              : `${field} must match the ${issue.format} format`,
      ]
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1
        ? [`${field} should not be empty`]
        : [`${field} must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`]
    case 'too_big':
      return issue.origin === 'string'
        ? [`${field} must be shorter than or equal to ${issue.maximum} characters`]
        : [`${field} must not be greater than ${issue.maximum}`]
    default:
      return [`${field}: ${issue.message}`]
  }
}

/** The `details` messages of a list of zod issues. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], subject: string): string[] {
  return issues.flatMap((issue) => describeIssue(issue, subject))
}

/** Validates `value`, or returns the 400 that lists every problem. */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  subject: string,
): { ok: true; data: z.infer<Schema> } | { ok: false; error: SandboxError } {
  const result = schema.safeParse(value, { reportInput: true })
  if (result.success) return { ok: true, data: result.data }
  const details = describeIssues(result.error.issues, subject)
  return { ok: false, error: badRequest('Validation failed', details) }
}
