/**
 * @module
 * The stages of the pass around an operation: its session's record opened first (an unknown
 * route creates none, unless a later stage answers it), and last the operation's pipeline in the
 * session's queue, with the write-ahead log's commit and the `operation:applied` event around it.
 */
import type { User } from '../model/schemas.ts'
import { announce, listens, type SandboxEvents } from './events.ts'
import { markFault } from './faults.ts'
import { runPipeline } from './pipeline.ts'
import type { RequestContext } from './request-context.ts'
import type { SessionRecord, SessionRegistry } from './sessions.ts'
import type { Stage } from './stage.ts'
import { type SessionLog, StaleCopyError } from './state-store.ts'

/** Keeps the request's session's record in memory while the request answers. */
function keep(context: RequestContext, record: SessionRecord): SessionRecord {
  record.active++
  context.record = record
  return record
}

/**
 * Thrown by a write of a shared session whose copy was stale (another process wrote since): the
 * session was loaded again, and the request passes the stages again, its fault rules decided anew.
 */
const PASS_AGAIN = Symbol('pass again')

/**
 * The session's record, opened for an operation's route (no wait when it is in memory); its 503
 * when its log cannot be read. An unknown route creates no session, unless a later stage answers.
 * With a shared store, a read's copy another process changed since is loaded again first (outside
 * the queue, so that the reads waiting share one check): its fault rules and clock are the latest.
 * A write checks nothing first (its append is refused when stale, one round trip either way): a
 * stale one passes the stages again on the session loaded anew.
 */
export function sessionStage(sessions: SessionRegistry, log: SessionLog | undefined): Stage {
  return async (context, next) => {
    const { operation, session } = context
    if (operation) {
      const record = keep(context, sessions.use(session) ?? (await sessions.open(session)))
      const write = operation.method !== 'GET'
      if (log?.current) {
        if (!write && !(await log.current(session)))
          await sessions.run(record, () => sessions.reload(record))
        context.time = context.settings!.now().toISOString() // on the clock loaded
      }
      if (record.unavailable) return record.unavailable.toResponse()
      context.operationId = operation.id
      if (!log?.current || !write) return next()
      const settings = context.settings!
      try {
        return await next()
      } catch (error) {
        if (error !== PASS_AGAIN) throw error
        context.passAgain(settings)
        return next()
      }
    }
    const answer = await next()
    if (context.unrouted) return answer
    const { unavailable } = keep(context, await sessions.open(session))
    return unavailable ? unavailable.toResponse() : answer
  }
}

/** The operation's pipeline for `context`, at one instant when a log or a listener needs it. */
async function apply(
  context: RequestContext,
  events: SandboxEvents,
  log: SessionLog | undefined,
  sessions: SessionRegistry,
) {
  const { session, record, request } = context
  const operation = context.operation!
  const logged = log !== undefined && operation.method !== 'GET'
  const announced = listens(events, 'operation:applied')
  // One instant per request, so that a replay of the log at that instant is exact.
  const at = logged || announced ? context.settings!.now() : undefined
  if (at) context.settings = { ...context.settings!, now: () => at }
  let stale = false
  let committed = false
  if (logged && at) {
    context.settings!.commit = async () => {
      try {
        await log.write(session, { time: at.toISOString(), request })
        committed = true
      } catch (error) {
        stale = error instanceof StaleCopyError
        throw error
      }
    }
  }
  const answered = await runPipeline(operation, context, record!.store)
  // A store shared by several processes: a write's answer from a copy another one wrote since
  // is given again, once, on the session loaded anew (`sessionStage`); stale twice, the store's
  // 503 stands.
  const shared = logged && log.current !== undefined && !context.passedAgain
  if (shared && (stale || (!committed && !(await log.current!(session))))) {
    await sessions.reload(record!)
    throw PASS_AGAIN
  }
  // Still inside the session's queue, so a listener sees the order writes ran in.
  if (announced && at) {
    announce(events, 'operation:applied', {
      session,
      request,
      operationId: operation.id,
      status: answered.response.status,
      dryRun: answered.dryRun,
      sessionCreated: record!.fresh,
      time: at,
    })
  }
  return answered
}

/** The last stage: the operation's pipeline, in its session's queue. */
export function operationStage(
  sessions: SessionRegistry,
  events: SandboxEvents,
  log: SessionLog | undefined,
  personaOf: (user: Readonly<User> | null) => string | undefined,
): Stage {
  return async (context, next) => {
    const { record } = context
    if (!context.operation || !record) return next()
    const result = await sessions.run(record, () => apply(context, events, log, sessions))
    if (result.replaced) context.fault = 'prefer'
    context.dryRun = result.dryRun
    context.persona = personaOf(result.caller)
    context.changes = result.changes
    if (result.problem) context.problem = result.problem
    return context.fault === undefined ? result.response : markFault(result.response, context.fault)
  }
}
