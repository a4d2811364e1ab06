/**
 * @module
 * One pass per request, in the order the backend's framework (NestJS) refuses one (decision 12):
 * body parser (413, 415, malformed JSON), token (401), role (403), query and body (400), then
 * what `Prefer` asks in place of the outcome, or the operation's declared preconditions (404,
 * 403, 409), `dryRun`, write, answer.
 */
import type { User } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import { readBearer, refreshTokenInBody, refreshTokenOwner, sentRefreshToken } from './caller.ts'
import { CHANGES_HEADER, type ChangeSummary, encodeChanges, noteChanges } from './change-summary.ts'
import { forbidden, internalErrorResponse, SandboxError, unauthorized } from './errors.ts'
import { jsonResponse, type SandboxRequest, type SandboxResponse } from './http.ts'
import type { Operation, OperationOutcome } from './operation.ts'
import { runRules } from './preconditions.ts'
import { type InputRequest, readDryRun, readStage, validateStage } from './request-input.ts'
import { type TokenSettings, verifyAccessToken } from './tokens.ts'

export interface PipelineSettings {
  tokens: TokenSettings
  strictContract: boolean
  bodyLimitBytes: number
  now(): Date
  /**
   * Awaited between the decision and the writes of a POST that is not a dry run: a write-ahead
   * log appends the request here; a `SandboxError` refuses the write, nothing applied.
   */
  commit?: (() => void | Promise<void>) | undefined
}

export interface PipelineInput extends InputRequest {
  cookies: Readonly<Record<string, string>>
  /** Answers in place of the operation once the request passed the checks (`Prefer`). */
  instead?: (() => SandboxResponse) | undefined
}

export interface PipelineResult {
  response: SandboxResponse
  dryRun: boolean | null
  /** The access token's subject, else the owner of the refresh token sent (a refresh). */
  callerId: string | null
  /** Answered by `instead`. */
  replaced?: true
  /** What its writes changed, when it wrote. */
  changes?: ChangeSummary | undefined
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

/** The user whose refresh token a request sends: how the journal knows a refresh's caller. */
function refreshTokenSender(input: PipelineInput, store: Store): Readonly<User> | null {
  const token = sentRefreshToken(refreshTokenInBody({ body: input.body }), input.cookies)
  if (token === undefined) return null
  const owner = refreshTokenOwner(store, token)
  return owner.ok ? owner.user : null
}

export const pipelineInput = (
  request: Pick<SandboxRequest, 'headers' | 'body' | 'bodyTooLarge'>,
  params: Record<string, string>,
  query: URLSearchParams,
  cookies: Readonly<Record<string, string>>,
): PipelineInput => ({
  params,
  query,
  headers: request.headers,
  cookies,
  body: request.body,
  bodyTooLarge: request.bodyTooLarge,
})

/** Runs `operation` for one request against `store`. Never throws. */
export async function runPipeline(
  operation: Operation,
  input: PipelineInput,
  store: Store,
  settings: PipelineSettings,
): Promise<PipelineResult> {
  let dryRun: boolean | null = null
  let caller = null as Readonly<User> | null
  let senderRead = false
  try {
    const query = readDryRun(operation, input.query, settings.strictContract)
    dryRun = query.dryRun
    const read = readStage(operation, input, settings, query)
    // 2. and 3. Guards: the token (401), then the role (403).
    caller = await authenticate(operation, input.headers, store, settings)
    // Who sends a refresh token, for the journal; before the operation runs, as a refresh may
    // revoke the token it was sent.
    caller ??= readBearer(input.headers.authorization).ok ? null : refreshTokenSender(input, store)
    senderRead = true
    const checked = validateStage(operation, input.params, read)
    // `Prefer: example=` replaces the operation's outcome, not its checks (decision 12).
    if (input.instead) {
      return {
        dryRun,
        callerId: caller?.publicId ?? null,
        response: input.instead(),
        replaced: true,
      }
    }
    const { params, body } = checked
    const now = settings.now()
    const outcome: OperationOutcome = operation.rules
      ? runRules(operation.rules, {
          params,
          body,
          caller: caller?.publicId ?? '',
          store,
          now,
          records: {},
          keys: {},
        })
      : await operation.run!({
          params,
          body,
          caller,
          store,
          now,
          query: input.query,
          cookies: input.cookies,
          dryRun: dryRun === true,
          tokens: settings.tokens,
        })
    let changes: ChangeSummary | undefined
    if (dryRun !== true) {
      if (settings.commit && operation.method === 'POST') await settings.commit()
      const summarise = outcome.apply && noteChanges(store)
      try {
        await outcome.apply?.()
      } finally {
        changes = summarise?.()
      }
    }
    const response = jsonResponse(operation.successStatus, outcome.body, outcome.setCookie ?? [])
    // Asked by the sandbox's own tools (MCP); an app's answer is the reference's.
    if (changes && input.headers[CHANGES_HEADER] !== undefined) {
      response.headers[CHANGES_HEADER] = encodeChanges(changes)
    }
    return { dryRun, callerId: caller?.publicId ?? null, response, changes }
  } catch (error) {
    if (!senderRead && !caller && !readBearer(input.headers.authorization).ok) {
      caller = refreshTokenSender(input, store)
    }
    const callerId = caller?.publicId ?? null
    if (error instanceof SandboxError) return { dryRun, callerId, response: error.toResponse() }
    console.error(`[sandbox] ${operation.id} failed:`, error)
    return { dryRun, callerId, response: internalErrorResponse() }
  }
}
