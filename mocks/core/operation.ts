/**
 * @module
 * What an operation declares: its place in the reference, its schemas, its auth rule,
 * and its rules as data (`preconditions.ts`), or, for a rule that cannot be data, a
 * function from a validated input to an outcome. The pipeline does everything else.
 */
import type { User } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import type { z } from '../model/zod.ts'
import type { DeclaredRules } from './preconditions.ts'
import type { TokenSettings } from './tokens.ts'

export type AuthRule = 'public' | 'user' | 'admin'

export interface OperationContext<Params, Body> {
  params: Params
  body: Body
  query: URLSearchParams
  cookies: Readonly<Record<string, string>>
  /** The signed-in user; `null` only for public operations. */
  caller: Readonly<User> | null
  store: Store
  now: Date
  dryRun: boolean
  tokens: TokenSettings
}

export interface OperationOutcome {
  body: unknown
  setCookie?: string[]
  /** The writes and side effects. The pipeline skips them under `dryRun=true`. */
  apply?: () => Promise<void>
}

export interface Operation<
  Params extends z.ZodMiniObject = z.ZodMiniObject,
  Body extends z.ZodMiniType = z.ZodMiniType,
> {
  /** The operationId of the published contract. */
  id: string
  /** Row number in the reference's endpoint table. */
  row: number
  method: 'GET' | 'POST'
  /** Path template as the reference writes it: `/bookings/{bookingId}/decline`. */
  path: string
  auth: AuthRule
  /** Whether the reference lists the `dryRun` query parameter for this operation. */
  dryRun: boolean
  successStatus: number
  params: Params
  /** Request body schema; `undefined` for operations without a body. */
  body: Body | undefined
  /** The preconditions, writes and answer, which the learner reads too. */
  rules?: DeclaredRules | undefined
  /** The operation as code, for rules that cannot be data: its file says why. */
  run?(context: OperationContext<z.infer<Params>, z.infer<Body>>): Promise<OperationOutcome>
  /**
   * Recorded answers by name: what `Prefer: example=<name>` and a fault rule's `example`
   * answer. Given by the table that assembles the operations (the built-in one adds those of
   * `spec/examples/`); none by default.
   */
  examples?: Readonly<Record<string, RecordedAnswer>> | undefined
  /**
   * The statuses the operation's document lists: the only ones `Prefer: code=` answers.
   * Default: its success status and the fault statuses.
   */
  documentedStatuses?: readonly number[] | undefined
}

/** A recorded answer of an operation: its status and JSON body. */
export interface RecordedAnswer {
  status: number
  body?: unknown
}

/** Declares an operation with its types inferred from its schemas. */
export function defineOperation<Params extends z.ZodMiniObject, Body extends z.ZodMiniType>(
  operation: Operation<Params, Body>,
): Operation {
  return operation as unknown as Operation
}
