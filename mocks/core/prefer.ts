/**
 * @module
 * The `Prefer` header in Prism's syntax: `code=409`, `example=<name>`, `delay=<ms>`, comma- or
 * semicolon-separated; other preferences are ignored (RFC 7240).
 */
import { badRequest, type ErrorStatus } from './errors.ts'
import { exampleNames, faultStatuses, MAX_DELAY_MS } from './fault-rules.ts'
import { errorAnswer, exampleAnswer, type FaultDecision } from './faults.ts'
import type { Operation } from './operation.ts'

function parsePrefer(header: string): Map<string, string> {
  const preferences = new Map<string, string>()
  for (const part of header.split(/[,;]/)) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    const name = part.slice(0, eq).trim().toLowerCase()
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
    if (!preferences.has(name)) preferences.set(name, value)
  }
  return preferences
}

/**
 * Statuses `Prefer: code=` accepts for `operation`: those the merged document documents on
 * it, so that the header never gives an answer the contract does not have (its success, its
 * errors, and a gateway's 429, 502, 503 and 504). An operation the document does not list
 * (one of a sandbox given its own operations) takes its success and every fault status.
 */
export function preferCodes(operation: Operation): number[] {
  return [...(operation.documentedStatuses ?? [operation.successStatus, ...faultStatuses])]
}

/**
 * What a `Prefer` header asks of `operation`, or `undefined` when it asks nothing the
 * sandbox knows. Throws a 400 listing the valid values for a code the operation does not
 * document or an example it does not have.
 */
export function readPrefer(header: string, operation: Operation): FaultDecision | undefined {
  const preferences = parsePrefer(header)
  const code = preferences.get('code')
  const example = preferences.get('example')
  const delay = preferences.get('delay')
  if (code === undefined && example === undefined && delay === undefined) return undefined

  const details: string[] = []
  const codes = preferCodes(operation)
  const names = exampleNames(operation)
  const status = code === undefined ? undefined : Number(code)
  if (status !== undefined && (!/^\d{3}$/.test(code!) || !codes.includes(status))) {
    details.push(`Prefer code must be one of: ${codes.join(', ')}`)
  }
  if (example !== undefined && !names.includes(example)) {
    details.push(`Prefer example must be one of: ${names.join(', ') || 'none'}`)
  }
  const delayMs = delay === undefined ? 0 : Number(delay)
  if (!/^\d+$/.test(delay ?? '0') || delayMs > MAX_DELAY_MS) {
    details.push(`Prefer delay must be an integer from 0 to ${MAX_DELAY_MS} (milliseconds)`)
  }
  if (details.length > 0) throw badRequest('Invalid Prefer header', details)

  const decision: FaultDecision = { mark: 'prefer', delayMs }
  if (example !== undefined) {
    const answer = exampleAnswer(operation, example)!
    if (status !== undefined && answer.status !== status) {
      throw badRequest('Invalid Prefer header', [
        `Prefer example ${example} answers ${answer.status}, not ${status}`,
      ])
    }
    decision.answer = answer
  } else if (status !== undefined) {
    const recorded = names.map((name) => exampleAnswer(operation, name)!)
    const answer = recorded.find((candidate) => candidate.status === status)
    if (answer) decision.answer = answer
    else if (status !== operation.successStatus) {
      decision.answer = errorAnswer(
        status as ErrorStatus,
        `Answered ${status} as the Prefer header asked`,
      )
    }
    // The success status with no recording: the operation runs and answers it for real.
  }
  return decision
}
