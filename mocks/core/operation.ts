/**
 * @module
 * What an operation declares: its place in the reference, schemas, auth rule and rules as data
 * (`preconditions.ts`), or, for a rule that cannot be data, code. The pipeline does the rest.
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
  /** The query as `Operation.query` parsed it, for an operation that declares one. */
  checkedQuery?: unknown
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
  /** What its declared response schema refuses in `body` (an operation of your own). */
  problem?: string | undefined
}

export interface Operation<
  Params extends z.ZodMiniObject = z.ZodMiniObject,
  Body extends z.ZodMiniType = z.ZodMiniType,
> {
  /** The published contract's operationId. */
  id: string
  /** Row number in the reference's endpoint table. */
  row: number
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** As the reference writes it: `/bookings/{bookingId}/decline`. */
  path: string
  auth: AuthRule
  /** The role a signed-in caller must have (`auth: 'user'`), besides `admin`'s. */
  role?: string | undefined
  /** The query's schema (without `dryRun`); none: the query is not checked. */
  query?: z.ZodMiniType | undefined
  /** Declared by the app (`defineBuiltInOperation`): what the documents and MCP read of it. */
  proposed?: { summary: string; declaration: unknown } | undefined
  /** Whether the reference lists the `dryRun` query parameter for this operation. */
  dryRun: boolean
  successStatus: number
  params: Params
  body: Body | undefined
  /** The preconditions, writes and answer, which the learner reads too. */
  rules?: DeclaredRules | undefined
  /** A sign-in with the user's `by` credential, sent in the body's `sent` field (or a cookie). */
  signIn?: { by: 'refreshToken' | 'idpCode'; sent: string } | undefined
  /** The operation as code, for rules that cannot be data: its file says why. */
  run?(context: OperationContext<z.infer<Params>, z.infer<Body>>): Promise<OperationOutcome>
  /**
   * Recorded answers by name, for `Prefer: example=<name>` and a fault rule's `example` (the
   * built-in table adds those of `spec/examples/`).
   */
  examples?: Readonly<Record<string, RecordedAnswer>> | undefined
  /** The only statuses `Prefer: code=` answers. Default: success and the fault statuses. */
  documentedStatuses?: readonly number[] | undefined
}

export interface RecordedAnswer {
  status: number
  body?: unknown
}

/** Declares an operation with its types inferred from its schemas. */
export function defineBuiltInOperation<Params extends z.ZodMiniObject, Body extends z.ZodMiniType>(
  operation: Operation<Params, Body>,
): Operation {
  return operation as unknown as Operation
}
