/**
 * The conformance suite: one list of cases that every runtime of the sandbox must answer
 * identically. Runtime-neutral (no Node API): run it with `runConformanceCase` from
 * `contract/conformance/run-case.ts` against any base URL a `fetch` reaches.
 *
 * @module
 */
import { authAndPaymentCases } from './auth-and-payments.ts'
import { marketplaceCases } from './marketplace.ts'
import type { ConformanceCase } from './types.ts'

/** Every case, grouped by area in the reference's row order. Names are unique. */
export const conformanceCases: readonly ConformanceCase[] = [
  ...authAndPaymentCases,
  ...marketplaceCases,
]

export { NOT_NULL } from './build.ts'
export type {
  CaseRequest,
  CollectionName,
  ConformanceCase,
  ContractNote,
  DocumentKind,
  RecordPattern,
  RecordsExpectation,
  StateCheck,
} from './types.ts'
