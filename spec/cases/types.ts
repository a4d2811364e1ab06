/**
 * The shape of a conformance case: one request, what it must answer, and what it must (or must
 * not) change. Plain data plus zod schemas, so that any runtime can run the same list.
 *
 * @module
 */
import type { CollectionName } from '../../mocks/model/schemas.ts'
import type { z } from '../../mocks/model/zod.ts'

/** The sandbox's collections, as `GET /__sandbox/collections/:name` names them. */
export type { CollectionName }

/** Which contract document a case is checked against by `npm run contract`. */
export type DocumentKind = 'published' | 'merged'

export interface CaseRequest {
  method: 'GET' | 'POST'
  /** Path and query string, percent-encoded: `/bookings/bkg_pending/decline?dryRun=true`. */
  url: string
  /** Persona key (`GET /__sandbox/personas`): its access token goes in `Authorization`. */
  as?: string
  /** A raw `Authorization` header; wins over `as`. */
  authorization?: string
  headers?: Readonly<Record<string, string>>
  /** JSON body, sent with `Content-Type: application/json`. */
  body?: unknown
  /** A body sent exactly as written (with `headers['content-type']`); wins over `body`. */
  rawBody?: string
}

/**
 * A partial record: every key must match. Nested objects match partially too, arrays and
 * other values exactly, and `NOT_NULL` matches any value except `null` and `undefined`.
 */
export type RecordPattern = Readonly<Record<string, unknown>>

/** What must hold for the records a `StateCheck` selects: how many, and a pattern all match. */
export interface RecordsExpectation {
  count?: number
  every?: RecordPattern
}

/** A state change: the records `where` selects before the request, and after it. */
export interface StateCheck {
  collection: CollectionName
  where: RecordPattern
  before?: RecordsExpectation
  after?: RecordsExpectation
  /** How many more records are selected after than before, when their number before varies. */
  added?: number
}

/** How `npm run contract` treats a case beyond "send it through Prism". */
export interface ContractNote {
  /**
   * Documents whose request rules this request deliberately breaks. Through the validating
   * proxy (`--errors`), Prism must refuse it itself; through the response-only proxy
   * (`--validate-request=false`) the sandbox's own answer is still checked.
   */
  breaks?: readonly DocumentKind[]
  /** Why Prism cannot check this case at all; the case still runs in every runtime. */
  skip?: string
}

export interface ConformanceCase {
  /** Unique and readable: `declineBooking: 409 when the booking is not pending`. */
  name: string
  /** The operationId of the contract. */
  operationId: string
  request: CaseRequest
  expect: {
    status: number
    /** The exact body, after `normalizeBody` (tokens and timestamps replaced by placeholders). */
    body?: unknown
    /** A schema the body must satisfy. */
    shape?: z.ZodMiniType
    /** Headers whose value must contain the given text (names in lower case). */
    headers?: Readonly<Record<string, string>>
  }
  /** State changes the request must make. */
  changes?: readonly StateCheck[]
  /** Collections the request must leave exactly as they were. */
  unchanged?: readonly CollectionName[]
  contract?: ContractNote
  /** The recorded example (`spec/examples/`) this case replays, as `operationId/name`. */
  example?: string
}
