/**
 * @module
 * Answering one request: the control API, then fault rules, recorded answers and the
 * operation's pipeline inside its session's queue. Every answer is journaled once.
 */
import { requestPersona } from './caller.ts'
import { createControlOriginRule, handleControl } from './control.ts'
import { type ControlRoute, controlRoutes, isControlPath } from './control-table.ts'
import { errorResponse, internalErrorResponse, notFound, SandboxError } from './errors.ts'
import { announce, listens } from './events.ts'
import { type FaultDecision, markFault } from './faults.ts'
import { cookiesOf, type SandboxRequest, type SandboxResponse, splitUrl } from './http.ts'
import {
  markSessionCreated,
  type RecordDetails,
  type RequestTrace,
  recordRequest,
} from './journal.ts'
import type { Operation } from './operation.ts'
import { type PipelineSettings, pipelineInput, runPipeline } from './pipeline.ts'
import { createLogApplier } from './reset-session.ts'
import { createRouter, otherMethodResponse, type RouteMatch, withoutBody } from './router.ts'
import type { MatchedOperation, SandboxOptions, SandboxParts } from './sandbox-types.ts'
import { DEFAULT_SESSION, resolveSession } from './session-id.ts'
import type { SessionRecord } from './sessions.ts'
import { answerFromStages } from './stage.ts'

/** What a path of the router leads to: an operation of the reference or a control route. */
type Routed = Operation | ControlRoute

// A set, not `'access' in routed`: operations differ in shape, and that lookup was measured slower.
const controlSet: ReadonlySet<Routed> = new Set(controlRoutes)
const isControl = (routed: Routed): routed is ControlRoute => controlSet.has(routed)

/** The request handler of `sandbox`, serving its operations and control API. */
export function createRequestHandler(
  parts: SandboxParts,
  options: Pick<SandboxOptions, 'controlToken' | 'controlOrigins'>,
) {
  const { sandbox, sessions, pipelineSettings, sessionLog } = parts
  const { events, faults, clocks, stages, operations, personas } = sandbox
  const controlOrigins = createControlOriginRule(options.controlOrigins)
  const personaKeys = new Map(personas.map((persona) => [persona.publicId, persona.key]))
  // One router over both tables: each request is matched once, an operation or a control call.
  const routes: Routed[] = [...operations, ...controlRoutes]
  const match = createRouter(
    routes.map((value) => ({ method: value.method, path: value.path, value })),
  )
  const knownMethods = [...new Set(routes.map((route) => route.method))]
  const allowedMethods = (path: string) =>
    knownMethods.filter((known) => match(known, path) !== undefined)
  /** Pipeline settings on the session's clock, when it was moved. */
  const settingsOf = (session: string): PipelineSettings =>
    clocks.has(session) ? { ...pipelineSettings, now: () => clocks.now(session) } : pipelineSettings

  async function answer(
    request: SandboxRequest,
    method: string,
    trace: RequestTrace,
    matched: MatchedOperation | undefined,
  ): Promise<SandboxResponse> {
    const { path, query } = trace
    const record = (response: SandboxResponse, details?: RecordDetails) => {
      const created = sessions.takeFresh(trace.session)
      const answered = markSessionCreated(response, created)
      recordRequest(
        events,
        trace,
        answered,
        created ? { ...details, sessionCreated: true } : details,
      )
      return answered
    }
    let opened: SessionRecord | undefined
    try {
      const cookies = cookiesOf(request)
      const session = resolveSession(request.headers, cookies)
      trace.session = session
      const sessionSettings = settingsOf(session)
      trace.time = sessionSettings.now().toISOString()
      const found = (matched && match.only(matched.operation, method, path)) ?? match(method, path)
      if (found ? isControl(found.value) : isControlPath(path)) {
        const response = await handleControl({
          sandbox,
          method,
          path,
          found: found as RouteMatch<ControlRoute> | undefined,
          allowed: found ? [] : allowedMethods(path),
          query,
          // Its cookies as read above: a journal view reads the session they name.
          request: request.cookies ? request : { ...request, cookies },
          session,
          controlToken: options.controlToken,
          controlOrigins,
        })
        // A control call is journaled only when it started its session.
        return sessions.peek(session)?.fresh ? record(response) : response
      }
      // Plugged stages (recorded answers) come after the control API and fault rules, before
      // the model. Only a sandbox with stages waits for them: no await on the path of others.
      const plugged = () => answerFromStages(stages, { method, path, query, request, session })
      /** The session's record, made on its first use; kept in memory while it answers. */
      const open = async () => {
        opened = (await sessions.open(session)).record
        opened.active++
        return opened
      }
      if (!found || isControl(found.value)) {
        const recorded = stages.length > 0 ? await plugged() : undefined
        if (recorded) {
          const state = await open()
          return record(state.unavailable ? state.unavailable.toResponse() : recorded)
        }
        // An unknown route creates no session.
        const allowed = allowedMethods(path)
        return record(
          allowed.length > 0
            ? otherMethodResponse(method, path, allowed)
            : notFound(`Cannot ${method} ${path}`).toResponse(),
        )
      }
      const state = await open()
      if (state.unavailable) return record(state.unavailable.toResponse())
      const operation = found.value
      trace.operationId = operation.id
      const prefer = request.headers.prefer
      let instead: FaultDecision['outcome']
      if (prefer !== undefined || faults.has(session)) {
        const decision = await faults.decide(session, operation, path, prefer, () =>
          requestPersona(
            request,
            cookies,
            personas,
            pipelineSettings.tokens,
            sessionSettings.now(),
            async () => state.store,
          ),
        )
        trace.fault = decision?.mark
        if (decision?.answer) return record(markFault(decision.answer, decision.mark))
        instead = decision?.outcome
        // Unmarked until it answers: a refusal of the checks is not `Prefer`'s (its delay is).
        if (instead && !decision?.delayMs) trace.fault = undefined
      }
      // An outcome asked by `Prefer` wins over recorded answers, as `Prefer` wins over rules.
      const recorded = stages.length > 0 && !instead ? await plugged() : undefined
      if (recorded) return record(recorded)
      const result = await sessions.run(state, () => {
        // With a write log or a listener, one instant per request, so a replay at that
        // instant is exact.
        const logged = sessionLog !== undefined && operation.method === 'POST'
        const announced = listens(events, 'operation:applied')
        const at = logged || announced ? sessionSettings.now() : undefined
        const settings: PipelineSettings = at
          ? { ...sessionSettings, now: () => at }
          : sessionSettings
        if (logged && at) {
          settings.commit = () => sessionLog.write(session, { time: at.toISOString(), request })
        }
        return runPipeline(
          operation,
          { ...pipelineInput(request, found.params, query, cookies), instead },
          state.store,
          settings,
        ).then((answered) => {
          // Still inside the session's queue, so a listener sees the order writes ran in.
          if (announced && at) {
            announce(events, 'operation:applied', {
              session,
              request,
              operationId: operation.id,
              status: answered.response.status,
              dryRun: answered.dryRun,
              sessionCreated: state.fresh,
              time: at,
            })
          }
          return answered
        })
      })
      const caller = result.callerId
      if (result.replaced) trace.fault = 'prefer'
      const answered =
        trace.fault === undefined ? result.response : markFault(result.response, trace.fault)
      return record(answered, {
        dryRun: result.dryRun,
        persona: caller && (personaKeys.get(caller) ?? caller),
        changes: result.changes,
      })
    } catch (error) {
      if (error instanceof SandboxError) {
        const refused = errorResponse(error)
        return trace.operationId !== null ? record(refused) : refused
      }
      console.error('[sandbox] request failed:', error)
      return internalErrorResponse()
    } finally {
      if (opened) opened.active--
    }
  }

  return {
    applyLog: createLogApplier(parts, (method, path) => {
      const found = match(method, path)
      return found && !isControl(found.value)
        ? { operation: found.value, params: found.params }
        : undefined
    }),
    /** See `Sandbox.route`: every route under the control prefix is `control`. */
    route(method: string, path: string): MatchedOperation | 'control' | undefined {
      if (isControlPath(path)) return 'control'
      const found = match(method.toUpperCase(), path)
      return found && { operation: found.value as Operation }
    },
    async handle(request: SandboxRequest, matched?: MatchedOperation): Promise<SandboxResponse> {
      const { path, query } = splitUrl(request.url)
      const requested = request.method.toUpperCase()
      const trace: RequestTrace = {
        request,
        method: requested,
        path,
        query,
        started: performance.now(),
        session: DEFAULT_SESSION,
        time: '',
        operationId: null,
        fault: undefined,
      }
      // HEAD is answered like GET, without the body.
      const method = requested === 'HEAD' ? 'GET' : requested
      const response = await answer(request, method, trace, matched)
      return requested === 'HEAD' ? withoutBody(response) : response
    },
  }
}
