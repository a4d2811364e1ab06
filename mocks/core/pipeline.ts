/**
 * @module
 * One pass per request, in the order the backend's framework (NestJS) refuses one (decision 12):
 * body parser (413, 415, malformed JSON), token (401), role (403), query and body (400), then
 * what `Prefer` asks in place of the outcome, or the operation's declared preconditions (404,
 * 403, 409), `dryRun`, write, answer.
 */

import type { User } from '../model/schemas.ts'
import type { Store } from '../model/store.ts'
import type { Caller } from './caller.ts'
import { CHANGES_HEADER, type ChangeSummary, encodeChanges, noteChanges } from './change-summary.ts'
import { forbidden, internalErrorResponse, SandboxError, unauthorized } from './errors.ts'
import { jsonResponse, type SandboxResponse } from './http.ts'
import type { Operation, OperationOutcome } from './operation.ts'
import { runRules } from './preconditions.ts'
import type { RequestContext } from './request-context.ts'
import { readDryRun, readStage, validateStage } from './request-input.ts'

export interface PipelineResult {
  response: SandboxResponse
  dryRun: boolean | null
  /** Who sent it (`RequestContext.callerIn`): a signed-in user, or the owner of the refresh token sent. */
  caller: Readonly<User> | null
  /** Answered by `Prefer` in place of the outcome. */
  replaced?: true
  /** What its writes changed, when it wrote. */
  changes?: ChangeSummary | undefined
  /** What went wrong in an operation of your own, for the journal. */
  problem?: string | undefined
}

/** The guards: the token (401), then the role (403); `null` for a public operation. */
function authenticate(operation: Operation, caller: Caller): Readonly<User> | null {
  if (operation.auth === 'public') return null
  const { bearer } = caller
  if (!bearer.ok) {
    throw unauthorized(
      bearer.problem === 'missing'
        ? 'Missing bearer token: send Authorization: Bearer <token>'
        : 'Malformed Authorization header: expected "Bearer <token>"',
    )
  }
  if (caller.refused) throw caller.refused
  const { user } = caller
  if (!user) throw unauthorized('The access token belongs to an unknown user')
  const role = operation.auth === 'admin' ? 'admin' : operation.role
  if (role !== undefined && !user.roles.includes(role as User['roles'][number])) {
    throw forbidden(`This operation requires the ${role} role`)
  }
  return user
}

/** Runs `operation` for the request of `context` against `store`, on `context.settings`. Never throws. */
export async function runPipeline(
  operation: Operation,
  context: RequestContext,
  store: Store,
): Promise<PipelineResult> {
  const settings = context.settings!
  let dryRun: boolean | null = null
  let caller: Caller | undefined
  try {
    const query = readDryRun(operation, context.query, settings.strictContract)
    dryRun = query.dryRun
    const read = readStage(operation, context, settings, query)
    // 2. and 3. Guards; the caller is worked out before the operation runs, as a refresh may
    // revoke the token it was sent.
    caller = await context.callerIn(store)
    const user = authenticate(operation, caller)
    const checked = validateStage(operation, context.params, read)
    // `Prefer: example=` replaces the operation's outcome, not its checks (decision 12).
    if (context.instead) {
      return { dryRun, caller: caller.user, response: context.instead(), replaced: true }
    }
    const { params, body } = checked
    const now = settings.now()
    const outcome: OperationOutcome = operation.rules
      ? runRules(operation.rules, {
          params,
          body,
          caller: user?.publicId ?? '',
          store,
          now,
          records: {},
          keys: {},
        })
      : await operation.run!({
          params,
          body,
          caller: user,
          store,
          now,
          query: context.query,
          checkedQuery: checked.query,
          cookies: context.cookies,
          dryRun: dryRun === true,
          tokens: settings.tokens,
        })
    let changes: ChangeSummary | undefined
    if (dryRun !== true) {
      if (settings.commit && operation.method !== 'GET') await settings.commit()
      const summarise = outcome.apply && noteChanges(store)
      try {
        await outcome.apply?.()
      } finally {
        changes = summarise?.()
      }
    }
    const response = jsonResponse(operation.successStatus, outcome.body, outcome.setCookie ?? [])
    // Asked by the sandbox's own tools (MCP); an app's answer is the reference's.
    if (changes && context.request.headers[CHANGES_HEADER] !== undefined) {
      response.headers[CHANGES_HEADER] = encodeChanges(changes)
    }
    return { dryRun, caller: caller.user, response, changes, problem: outcome.problem }
  } catch (error) {
    const user = caller
      ? caller.user
      : await context.callerIn(store).then(
          (c) => c.user,
          () => null,
        )
    // An operation of your own that threw (a 500): its message goes to the journal.
    const problem = error instanceof SandboxError && error.status === 500 && error.message
    if (error instanceof SandboxError)
      return { dryRun, caller: user, response: error.toResponse(), ...(problem && { problem }) }
    console.error(`[sandbox] ${operation.id} failed:`, error)
    return { dryRun, caller: user, response: internalErrorResponse() }
  }
}
