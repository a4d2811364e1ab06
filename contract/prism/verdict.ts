/**
 * @module
 * Reads what Prism said about one exchange. Prism reports in two ways, and both count:
 * - with `--errors`, it answers itself with an `application/problem+json` body: 422 for a
 *   request that breaks the contract, 401 for missing credentials, 500 `VIOLATIONS` for a
 *   response that breaks it (each with a `validation` list);
 * - on a forwarded answer, the `sl-violations` header lists every violation, warnings too
 *   (for instance "Unable to match the returned status code", for an undocumented status).
 */

export interface Violation {
  /** Dotted location: `response.body.payouts_enabled`, `request.query.dryRun`. */
  location: string
  message: string
  /** `Error`, `Warning`, `Information` or `Hint`, as Prism says. */
  severity: string
}

export interface PrismVerdict {
  /** Prism answered itself (problem+json) instead of passing the sandbox's answer on. */
  answeredByPrism: boolean
  /** Prism's problem type when it answered itself: `UNPROCESSABLE_ENTITY`, `UNAUTHORIZED`, `VIOLATIONS`… */
  problem?: string
  /** Prism's own title and detail when it answered itself. */
  detail?: string
  violations: Violation[]
}

interface RawViolation {
  location?: unknown
  message?: unknown
  severity?: unknown
}

/** The verdict on one answer that came through Prism. */
export function readVerdict(answer: { headers: Headers; body: unknown }): PrismVerdict {
  const violations: Violation[] = []
  const header = answer.headers.get('sl-violations')
  if (header) violations.push(...parseViolationHeader(header))

  const contentType = answer.headers.get('content-type') ?? ''
  if (!contentType.includes('application/problem+json')) {
    return { answeredByPrism: false, violations: dedupe(violations) }
  }
  const problem = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as {
    type?: unknown
    title?: unknown
    detail?: unknown
    validation?: unknown
  }
  if (Array.isArray(problem.validation)) {
    violations.push(...problem.validation.map((raw: RawViolation) => toViolation(raw)))
  }
  const type = typeof problem.type === 'string' ? problem.type.replace(/^.*#/, '') : 'UNKNOWN'
  const detail = [problem.title, problem.detail].filter((part) => typeof part === 'string')
  return {
    answeredByPrism: true,
    problem: type,
    detail: detail.join(': '),
    violations: dedupe(violations),
  }
}

/** One line per violation: `response.body.payouts_enabled: must be boolean`. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations
    .map(
      ({ location, message, severity }) =>
        `${location ? `${location}: ` : ''}${message}${severity === 'Error' ? '' : ` (${severity.toLowerCase()})`}`,
    )
    .join('; ')
}

function parseViolationHeader(header: string): Violation[] {
  const json = header.replace(/^Too many violations! /, '')
  try {
    const parsed: unknown = JSON.parse(json)
    if (Array.isArray(parsed)) return parsed.map((raw: RawViolation) => toViolation(raw))
  } catch {
    // Truncated by Prism ("Too many violations!"): report it as it is.
  }
  return [{ location: '', message: header.slice(0, 500), severity: 'Error' }]
}

function toViolation(raw: RawViolation): Violation {
  const location = Array.isArray(raw.location) ? raw.location.join('.') : ''
  return {
    location,
    message: typeof raw.message === 'string' ? raw.message : JSON.stringify(raw),
    severity: typeof raw.severity === 'string' ? raw.severity : 'Error',
  }
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>()
  return violations.filter((violation) => {
    const key = `${violation.location}|${violation.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
