/**
 * @module
 * An operation of your own (`defineOperation`): what an app declares for a read or a write the
 * reference lacks, served from the session's collections with the checks of the 13 (who may call,
 * schemas, preconditions, `dryRun`, the write-ahead log) and written into the documents served,
 * marked as proposed. `user-operations.ts` checks declarations and makes them rows of the table.
 */
import type { CollectionName, RecordOf, User } from '../model/schemas.ts'
import type { Table } from '../model/table.ts'
import { z } from '../model/zod.ts'
import { DEFAULT_PAGE_LIMIT, type Page, pageLimit, pageOf, pageQuerySchema } from './paging.ts'
import type { Fields, Precondition } from './preconditions.ts'

/** Any zod 4 schema: `z` of `platform-sandbox` (zod/mini) or of `zod`. */
export type Schema = z.core.$ZodType
type Out<S> = S extends Schema ? z.output<S> : Record<string, never>
type In<S> = S extends Schema ? z.input<S> : unknown
/** The `{name}` parameters of a path template, each a string. */
type PathParams<Path> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : unknown
type ParamsOf<P, Path> = P extends Schema ? z.output<P> : PathParams<Path>

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type Role = User['roles'][number]
/** Who may call it: anyone, a signed-in user (a bearer token), or one with a role. */
export type Who = 'public' | 'signedIn' | { role: Role }
/** The caller an answer is given: the signed-in user, `null` for a public operation. */
type CallerOf<A> = A extends 'public' ? Readonly<User> | null : Readonly<User>

export interface ResponseDeclaration<S extends Schema = Schema> {
  description?: string
  /** The body's schema: every answer of this status is checked against it. */
  schema?: S
  /** Named examples of the body, written into the documents. */
  examples?: Readonly<Record<string, unknown>>
}

export type Responses = { readonly [status: number]: ResponseDeclaration }

/** The body an answer returns: the schema of the declared 2xx status (204: none). */
type SuccessBody<R> = {
  [S in keyof R]: S extends 200 | 201 | 202 | 203 | 206
    ? R[S] extends { schema: infer X }
      ? In<X>
      : unknown
    : S extends 204
      ? undefined
      : never
}[keyof R]

/**
 * A collection as an answer reads and writes it: the table's public methods by name, not the
 * class, so that the declarations typed by the main entry's types fit `platform-sandbox/node`'s,
 * whose build has a copy of them (a class with private fields matches only itself).
 */
type TableView<T extends object> = Pick<
  Table<T>,
  | 'name'
  | 'key'
  | 'get'
  | 'has'
  | 'all'
  | 'count'
  | 'find'
  | 'filter'
  | 'insert'
  | 'update'
  | 'delete'
>

/** What an answer is given: the checked request, the caller, the session's collections. */
export interface AnswerContext<Params, Query, Body, Caller = Readonly<User> | null> {
  params: Params
  query: Query
  body: Body
  /** The signed-in user (`'signedIn'`, a role); `null` for a public operation. */
  caller: Caller
  /** The session's collections, each typed by its schema; a write changes them. */
  collections: { readonly [Name in CollectionName]: TableView<RecordOf<Name>> }
  /** The session's clock. */
  now: Date
  /** `true` for `?dryRun=true`: the answer's writes are made on a copy and dropped. */
  dryRun: boolean
  /** The records the preconditions loaded, by name. */
  records: Readonly<Record<string, Fields>>
  /** A new id unique in the session: `<prefix>_n0001`... */
  nextId(prefix: string): string
}

export interface OperationDeclaration<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Responses = Responses,
  Path extends string = string,
  A extends Who = Who,
> {
  /** Its operationId: unique, and the name of its MCP tool. */
  id: string
  method: OperationMethod
  /** With `{name}` parameters: `/hosts/{hostId}/bookings`. */
  path: Path
  summary: string
  description?: string
  auth: A
  /** The path parameters' schema; default: each `{name}` a non-empty string. */
  params?: P
  /** The query's schema (`dryRun` is left out of it). */
  query?: Q
  /** The JSON body's schema (not for GET). */
  body?: B
  /** Offers `?dryRun=true` (a write): the checks and the answer, no change. */
  dryRun?: boolean
  /** The answers by status; the 2xx one is what `answer` returns. */
  responses: R
  /** Checked in order before `answer`: `rulesOn(collection, name).exists(...)`... */
  requires?: readonly Precondition[]
  /** The body of the 2xx answer; throw a `SandboxError` to refuse. */
  answer(
    context: AnswerContext<ParamsOf<P, Path>, Out<Q>, Out<B>, CallerOf<A>>,
  ): SuccessBody<R> | Promise<SuccessBody<R>>
}

/** A declaration as the sandbox takes it, whatever its types. */
// biome-ignore lint/suspicious/noExplicitAny: the answer's context differs per declaration
export type AnyOperationDeclaration = OperationDeclaration<any, any, any, any, string, any>

/**
 * Declares an operation of your own, its types inferred from its schemas.
 * See docs/frontend/operations-of-your-own.md.
 */
export function defineOperation<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  const R extends Responses = Responses,
  const Path extends string = string,
  const A extends Who = Who,
>(declaration: OperationDeclaration<P, Q, B, R, Path, A>): AnyOperationDeclaration {
  return declaration as AnyOperationDeclaration
}

export interface ListOptions<T> {
  /** Records per page, 1 to 200 (a query string's too). Default 20. */
  limit?: number | string | undefined
  /** The `next` of the page before; none for the first page. */
  cursor?: string | undefined
  /** Keeps the records whose fields equal these values; an `undefined` value filters nothing. */
  where?: { [F in keyof T]?: T[F] | undefined } | undefined
}

/**
 * A page of `records` in the sandbox's paging convention: `{ items, next, total }`, `next` the
 * cursor of the next page (`null` after the last); a cursor not made here is a 400.
 */
export function listPage<T extends object>(
  records: readonly T[],
  options: ListOptions<T> = {},
): Page<T> {
  const where = Object.fromEntries(
    Object.entries(options.where ?? {}).filter(([, value]) => value !== undefined),
  )
  const limit = options.limit === undefined ? DEFAULT_PAGE_LIMIT : Number(options.limit)
  const page = pageOf(records, { limit, cursor: options.cursor, where }, Object.keys(where))
  return page as Page<T>
}

/** The paging query's fields, to spread into a list's query schema: `{ ...pageQuery, status }`. */
export const pageQuery = {
  limit: z.optional(pageLimit),
  cursor: pageQuerySchema.shape.cursor,
}
