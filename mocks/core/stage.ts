/**
 * @module
 * A stage of the request pass, `(context, next)` as Hono's middleware: it answers the request, or
 * hands it on with `next()`; `compose` runs them in order. What an entry plugs in is a
 * `SandboxStage` (replay is one): it answers or passes, as msw's `server.use()` handlers do.
 */
import type { SandboxResponse } from './http.ts'
import type { RequestContext } from './request-context.ts'

export type Stage = (
  context: RequestContext,
  next: () => Promise<SandboxResponse>,
) => Promise<SandboxResponse>

/** Runs `stages` in order, as Hono's `compose`; `last` answers what none of them did. */
export function compose(
  stages: readonly Stage[],
  last: (context: RequestContext) => SandboxResponse,
): (context: RequestContext) => Promise<SandboxResponse> {
  const run = (context: RequestContext, index: number): Promise<SandboxResponse> => {
    const stage = stages[index]
    if (!stage) return Promise.resolve(last(context))
    return stage(context, () => run(context, index + 1))
  }
  return (context) => run(context, 0)
}

/** What a plugged stage reads of a request: its context. */
export type StageRequest = Pick<RequestContext, 'method' | 'path' | 'query' | 'request' | 'session'>

export interface SandboxStage {
  /** An answer instead of the model's (or of a 404 or 405), or `undefined` to pass it on. */
  answer(request: StageRequest): SandboxResponse | undefined | Promise<SandboxResponse | undefined>
  /** Forgets what it keeps for `session` (released), or for every session (`resetAll`). */
  rewind?(session?: string): void
}

/**
 * The plugged stages as one stage of the pass: the first answer wins. None is asked once `Prefer`
 * chose an outcome (it wins over recorded answers, as over fault rules).
 */
export function pluggedStage(plugged: readonly SandboxStage[]): Stage {
  return async (context, next) => {
    if (context.instead) return next()
    for (const stage of plugged) {
      const answer = await stage.answer(context)
      if (answer !== undefined) return answer
    }
    return next()
  }
}
