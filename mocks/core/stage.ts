/**
 * @module
 * What can be plugged into the core: a stage that may answer before the model, after the
 * control API and the fault rules (first answer wins), as msw's `server.use()` prepends
 * handlers. Recorded answers are one.
 */
import type { SandboxRequest, SandboxResponse } from './http.ts'

/** A request as a plugged stage sees it. */
export interface StageRequest {
  method: string
  /** Decoded path, without the query. */
  path: string
  query: URLSearchParams
  request: SandboxRequest
  session: string
}

export interface SandboxStage {
  /**
   * An answer to give instead of the model's, or `undefined` to pass the request on. Asked
   * for requests to the operations (after the fault rules) and to routes the sandbox does
   * not know (before its 404 or 405).
   */
  answer(request: StageRequest): SandboxResponse | undefined | Promise<SandboxResponse | undefined>
  /**
   * Forgets what the stage keeps for `session` (its record was released), or for every
   * session when called without one (`resetAll`).
   */
  rewind?(session?: string): void
}

/** The first answer of `stages`, in order; `undefined` when none answers. */
export async function answerFromStages(
  stages: readonly SandboxStage[],
  request: StageRequest,
): Promise<SandboxResponse | undefined> {
  for (const stage of stages) {
    const answer = await stage.answer(request)
    if (answer !== undefined) return answer
  }
  return undefined
}
