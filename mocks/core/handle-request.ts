/**
 * @module
 * The request pass. The edge makes the request's context once (its session checked, its clock,
 * its route matched once over both tables); then the stages below run in order, each answering
 * or handing on with `next()`, as Hono's `compose`; what none answers is a 404 or a 405. Every
 * answer is journaled once, a control call's only when it started its session.
 */
import { personaNames } from './caller.ts'
import { controlStage, isControlPath } from './control.ts'
import { errorResponse, internalErrorResponse, SandboxError } from './errors.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import { journalAnswer } from './journal.ts'
import { operationStage, sessionStage } from './operation-stage.ts'
import { type MatchedOperation, RequestContext } from './request-context.ts'
import type { RouteTable } from './route-table.ts'
import { withoutBody } from './router.ts'
import { pipelineSettings, type SandboxCore, type SandboxCoreOptions } from './sandbox-types.ts'
import { checkNamedSession } from './session-id.ts'
import type { SessionRegistry } from './sessions.ts'
import { compose, type Stage } from './stage.ts'

export function createRequestPass(
  sandbox: SandboxCore,
  sessions: SessionRegistry,
  routes: RouteTable,
  plugged: readonly Stage[],
  options: SandboxCoreOptions,
) {
  const { events, clocks, settings } = sandbox
  const personaOf = personaNames(sandbox.personas)
  const stages: Stage[] = [
    controlStage(sandbox, options, routes.allowed), // every request under `/__sandbox`
    sessionStage(sessions, options.store?.sessions), // the session's record, its latest copy
    ...plugged, // handed in by the assembly, in order: the fault rules, recorded answers
    operationStage(sessions, events, options.store?.sessions, personaOf), // the pipeline
  ]
  const pass = compose(stages, routes.unrouted)
  const base = pipelineSettings(settings)
  const journal = (context: RequestContext, answer: SandboxResponse) =>
    journalAnswer(events, sessions, context, answer)

  async function answer(context: RequestContext): Promise<SandboxResponse> {
    try {
      const session = checkNamedSession(context.session)
      // On the session's clock, when it was moved (with a shared store, maybe by another process).
      const moved = clocks.has(session) || options.store?.sessions.current
      context.settings = moved ? { ...base, now: () => clocks.now(session) } : base
      context.time = context.settings.now().toISOString()
      routes.route(context)
      const answer = await pass(context)
      if (isControlPath(context.path) && !sessions.peek(session)?.fresh) return answer
      return journal(context, answer)
    } catch (error) {
      if (!(error instanceof SandboxError)) {
        console.error('[sandbox] request failed:', error)
        return internalErrorResponse()
      }
      const refused = errorResponse(error)
      return context.operationId === null ? refused : journal(context, refused)
    } finally {
      if (context.record) context.record.active--
    }
  }

  /** Answers one request (a context an adapter made, or one made here). Never throws. */
  return async function handle(
    request: SandboxRequest,
    matched?: MatchedOperation,
  ): Promise<SandboxResponse> {
    const context =
      request instanceof RequestContext ? request : new RequestContext(request, matched)
    const answered = await answer(context)
    return context.head ? withoutBody(answered) : answered
  }
}
