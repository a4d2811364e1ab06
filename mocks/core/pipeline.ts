/**
 * @module
 * One pass per request, in fixed stages, in the order the real backend's framework (NestJS)
 * refuses a request: the body parser (413, 415, malformed JSON), then authentication (401),
 * then authorisation by role (403), then validation of the query and of the parsed body
 * (400), then the operation (load: 404, check the transition: 409), `dryRun`, write, answer.
 * Written once; operations only declare. See docs/decisions/0012-order-of-refusals.md.
 */
import type { z } from 'zod'
import type { User } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import { readBearer, refreshTokenInBody, refreshTokenOwner, sentRefreshToken } from './caller.ts'
import { readDryRunQuery } from './dry-run.ts'
import {
  badRequest,
  type ErrorStatus,
  errorResponse,
  forbidden,
  internalErrorResponse,
  SandboxError,
  unauthorized,
} from './errors.ts'
import { jsonResponse, type SandboxResponse } from './http.ts'
import type { Operation, OperationOutcome } from './operation.ts'
import { runRules } from './preconditions.ts'
import { decodeParams } from './router.ts'
import { type TokenSettings, verifyAccessToken } from './tokens.ts'
import { parseInput } from './validation.ts'

export interface PipelineSettings {
  tokens: TokenSettings
  /** Treat a missing `dryRun` as the published contract does: a 400. */
  strictContract: boolean
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number
  now(): Date
  /**
   * Awaited between the operation's decision and its writes, for a POST that is not a dry
   * run: a write-ahead log appends the request here. Throwing a `SandboxError` refuses the
   * write, and nothing is applied.
   */
  commit?: (() => void | Promise<void>) | undefined
}

export interface PipelineInput {
  params: Record<string, string>
  query: URLSearchParams
  headers: Readonly<Record<string, string | undefined>>
  cookies: Readonly<Record<string, string>>
  body: string | null | undefined
  bodyTooLarge?: boolean | undefined
}

export interface PipelineResult {
  response: SandboxResponse
  /** `true`/`false` when the operation carries `dryRun`, `null` otherwise. */
  dryRun: boolean | null
  /**
   * Public id of the caller, when known: the subject of the access token, else the owner of
   * the refresh token the request sends (a refresh, in its body or its cookie).
   */
  callerId: string | null
}

/** The exact UTF-8 length of `text`, counted without encoding it. */
export function byteLength(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2 // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++
    } else bytes += 2 // 3 bytes, lone surrogates too (encoded as U+FFFD)
  }
  return bytes
}

/** `application/json` of `Application/JSON; charset=utf-8`; `''` when there is none. */
function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return ''
  // The usual header, as clients send it, needs no copy.
  if (contentType.startsWith('application/json')) {
    if (contentType.length === 16 || contentType.charCodeAt(16) === 0x3b /* ; */) {
      return 'application/json'
    }
  }
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * What the body parser does with the body of a POST: size (413), media type (415), JSON
 * (400). An empty body is `{}`. The value is not checked further: that is validation's part.
 */
export function parseJsonBody(
  text: string | null | undefined,
  contentType: string | undefined,
  limitBytes: number,
  tooLarge = false,
): unknown {
  const oversized =
    tooLarge ||
    (text != null &&
      (text.length > limitBytes || (text.length * 3 > limitBytes && byteLength(text) > limitBytes)))
  if (oversized) throw new SandboxError(413, `Request body is larger than ${limitBytes} bytes`)
  if (text == null || text.length === 0) return {}
  const mediaType = mediaTypeOf(contentType)
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
    throw new SandboxError(
      415,
      `Unsupported media type "${mediaType || 'none'}": send application/json`,
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('Malformed JSON in request body', ['body must be valid JSON'])
  }
}

/** Reads the body of a POST: size, media type, JSON, object. Shared by every runtime. */
export function readJsonBody(
  text: string | null | undefined,
  contentType: string | undefined,
  limitBytes: number,
  tooLarge = false,
): Record<string, unknown> {
  const value = parseJsonBody(text, contentType, limitBytes, tooLarge)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object', ['body must be an object'])
  }
  return value as Record<string, unknown>
}

/** `dryRun` of the query (`null` when the operation has none), or the 400 it is refused with. */
function readDryRun(
  operation: Operation,
  query: URLSearchParams,
  strictContract: boolean,
): { dryRun: boolean | null; error?: SandboxError } {
  if (!operation.dryRun) return { dryRun: null }
  try {
    const value = readDryRunQuery(query)
    if (value !== undefined) return { dryRun: value }
    if (!strictContract) return { dryRun: false }
    throw badRequest('Validation failed', [
      'dryRun is required by the published contract and must be one of: true',
    ])
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error
    return { dryRun: null, error }
  }
}

/** `schema`'s verdict; the messages only on failure, as zod's plain `safeParse` is quicker. */
function validated(schema: z.ZodType, value: unknown, subject: string) {
  const quick = schema.safeParse(value)
  return quick.success
    ? { ok: true as const, data: quick.data }
    : parseInput(schema, value, subject)
}

/** What the input checks give the operation. */
export interface CheckedInput {
  dryRun: boolean | null
  params: Record<string, string>
  /** The body as its schema parsed it; `{}` for an operation without one. */
  body: Record<string, unknown>
}

type InputSettings = Pick<PipelineSettings, 'strictContract' | 'bodyLimitBytes'>
type Request = Pick<PipelineInput, 'params' | 'query' | 'headers' | 'body' | 'bodyTooLarge'>

/** Stage 1 with `dryRun` read first (a request refused earlier still journals it). */
function readStage(operation: Operation, input: Request, settings: InputSettings) {
  const read = readDryRun(operation, input.query, settings.strictContract)
  // 1. The body parser: 413, 415, malformed JSON.
  const body =
    operation.method === 'POST'
      ? parseJsonBody(
          input.body,
          input.headers['content-type'],
          settings.bodyLimitBytes,
          input.bodyTooLarge,
        )
      : undefined
  return { ...read, body }
}

/** Stage 4: the query, the path and the parsed body against their schemas: one 400 with every problem. */
function validateStage(
  operation: Operation,
  rawParams: Record<string, string>,
  { dryRun, error, body }: ReturnType<typeof readStage>,
): CheckedInput {
  const params = validated(operation.params, decodeParams(rawParams), 'params')
  const parsedBody = operation.body ? validated(operation.body, body, 'body') : undefined
  const details = [
    ...(error?.details ?? []),
    ...(params.ok ? [] : (params.error.details ?? [])),
    ...(parsedBody && !parsedBody.ok ? (parsedBody.error.details ?? []) : []),
  ]
  if (details.length > 0 || error || !params.ok || (parsedBody && !parsedBody.ok)) {
    throw badRequest('Validation failed', details)
  }
  const data = parsedBody?.ok ? parsedBody.data : {}
  return {
    dryRun,
    params: params.data as Record<string, string>,
    body: data as Record<string, unknown>,
  }
}

/**
 * The pipeline's input checks without its guards, in its order: what a request is answered
 * whatever the state and the caller. The learner checks recorded requests with it. Throws
 * the `SandboxError` the pipeline would answer.
 */
export function checkInput(
  operation: Operation,
  input: Request,
  settings: InputSettings,
): CheckedInput {
  return validateStage(operation, input.params, readStage(operation, input, settings))
}

async function authenticate(
  operation: Operation,
  headers: PipelineInput['headers'],
  store: Store,
  settings: PipelineSettings,
): Promise<Readonly<User> | null> {
  if (operation.auth === 'public') return null
  const bearer = readBearer(headers.authorization)
  if (!bearer.ok) {
    throw unauthorized(
      bearer.problem === 'missing'
        ? 'Missing bearer token: send Authorization: Bearer <token>'
        : 'Malformed Authorization header: expected "Bearer <token>"',
    )
  }
  const claims = await verifyAccessToken(settings.tokens, bearer.token, settings.now())
  const user = store.users.get(claims.sub)
  if (!user) throw unauthorized('The access token belongs to an unknown user')
  if (operation.auth === 'admin' && !user.roles.includes('admin')) {
    throw forbidden('This operation requires the admin role')
  }
  return user
}

/**
 * The user whose refresh token a request sends (the body wins over the cookie, as in
 * `POST /auth/refresh`), or `null`: how the journal knows the caller of a refresh.
 */
function refreshTokenSender(input: PipelineInput, store: Store): Readonly<User> | null {
  const token = sentRefreshToken(refreshTokenInBody({ body: input.body }), input.cookies)
  if (token === undefined) return null
  const owner = refreshTokenOwner(store, token)
  return owner.ok ? owner.user : null
}

/** Runs `operation` for one request against `store`. Never throws. */
export async function runPipeline(
  operation: Operation,
  input: PipelineInput,
  store: Store,
  settings: PipelineSettings,
): Promise<PipelineResult> {
  let dryRun: boolean | null = null
  let caller = null as Readonly<User> | null
  /** Whether the refresh token's sender was already looked for (once per request). */
  let senderRead = false
  try {
    const read = readStage(operation, input, settings)
    dryRun = read.dryRun
    // 2. and 3. Guards: the token (401), then the role (403).
    caller = await authenticate(operation, input.headers, store, settings)
    // Who sends a refresh token, for the journal; before the operation runs, as a refresh may
    // revoke the token it was sent.
    caller ??= readBearer(input.headers.authorization).ok ? null : refreshTokenSender(input, store)
    senderRead = true
    const checked = validateStage(operation, input.params, read)
    const context = {
      params: checked.params,
      body: checked.body,
      caller,
      store,
      now: settings.now(),
    }
    const outcome: OperationOutcome = operation.rules
      ? runRules(operation.rules, {
          ...context,
          caller: context.caller?.publicId ?? '',
          records: {},
          keys: {},
        })
      : await operation.run!({
          ...context,
          query: input.query,
          cookies: input.cookies,
          dryRun: dryRun === true,
          tokens: settings.tokens,
        })
    if (dryRun !== true) {
      if (settings.commit && operation.method === 'POST') await settings.commit()
      if (outcome.apply) await outcome.apply()
    }
    return {
      dryRun,
      callerId: caller?.publicId ?? null,
      response: jsonResponse(operation.successStatus, outcome.body, outcome.setCookie ?? []),
    }
  } catch (error) {
    if (!senderRead && !caller && !readBearer(input.headers.authorization).ok) {
      caller = refreshTokenSender(input, store)
    }
    const callerId = caller?.publicId ?? null
    if (error instanceof SandboxError) return { dryRun, callerId, response: errorResponse(error) }
    console.error(`[sandbox] ${operation.id} failed:`, error)
    return { dryRun, callerId, response: internalErrorResponse() }
  }
}

export type { ErrorStatus }
