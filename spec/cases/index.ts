/**
 * The conformance suite: one list of cases that every runtime of the sandbox must answer
 * identically. Runtime-neutral (no Node API): run it with `runConformanceCase` from
 * `contract/conformance/run-case.ts` against any base URL a `fetch` reaches.
 *
 * @module
 */
import { ambassadorCases } from './ambassadors.ts'
import { authCases } from './auth.ts'
import { bookingCases } from './bookings.ts'
import { checkoutCases } from './checkout.ts'
import { contractCases } from './contracts.ts'
import { followCases } from './follows.ts'
import { notificationCases } from './notifications.ts'
import { payprovCases } from './payprov.ts'
import { reviewCases } from './reviews.ts'
import type { ConformanceCase } from './types.ts'
import { venueCases } from './venues.ts'

/** Every case, grouped by area in the reference's row order. Names are unique. */
export const conformanceCases: readonly ConformanceCase[] = [
  ...authCases,
  ...payprovCases,
  ...ambassadorCases,
  ...venueCases,
  ...reviewCases,
  ...followCases,
  ...bookingCases,
  ...contractCases,
  ...checkoutCases,
  ...notificationCases,
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
