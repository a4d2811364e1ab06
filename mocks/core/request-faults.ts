/**
 * @module
 * The fault stage of a request: a `Prefer` header, then the session's fault rules; run only
 * when there is either, so a sandbox without them pays one lookup.
 */
import type { FaultDecision, FaultRegistry } from './faults.ts'
import type { Operation } from './operation.ts'
import { readPrefer } from './prefer.ts'

export interface FaultStageInput {
  faults: FaultRegistry
  session: string
  operation: Operation
  path: string
  prefer: string | undefined
  persona: () => Promise<string | undefined>
}

/** The decision for one request (throws a 400 for a bad `Prefer`), after waiting its delay. */
export async function runFaultStage(input: FaultStageInput): Promise<FaultDecision | undefined> {
  const decision =
    (input.prefer === undefined ? undefined : readPrefer(input.prefer, input.operation)) ??
    (await input.faults.decide(input.session, input.operation, input.path, input.persona))
  if (decision && decision.delayMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, decision.delayMs))
  }
  return decision
}
