/**
 * The conformance suite's public surface: the case list and the runner that plays it against
 * one runtime. Runtime-neutral: only `fetch`, `URL` and zod.
 *
 * @module
 */
export { conformanceCases, NOT_NULL } from '../../spec/cases/index.ts'
export type {
  CaseRequest,
  CollectionName,
  ConformanceCase,
  ContractNote,
  DocumentKind,
  RecordPattern,
  RecordsExpectation,
  StateCheck,
} from '../../spec/cases/types.ts'
export { deepEqual, normalizeBody } from './compare.ts'
export {
  type CaseOutcome,
  type ConformanceRunner,
  type ConformanceTarget,
  createConformanceRunner,
} from './run-case.ts'
