/**
 * @module
 * What can be plugged into the core: a stage that may answer after the control API and the
 * fault rules, before the model (first answer wins), as msw's `server.use()`. Replay is one.
 */
import type { SandboxRequest, SandboxResponse } from './http.ts'

export interface StageRequest {
  method: string
  /** Without the query. */
  path: string
  query: URLSearchParams
  request: SandboxRequest
  session: string
}

export interface SandboxStage {
  /** An answer instead of the model's (or of a 404 or 405), or `undefined` to pass it on. */
  answer(request: StageRequest): SandboxResponse | undefined | Promise<SandboxResponse | undefined>
  /** Forgets what it keeps for `session` (released), or for every session (`resetAll`). */
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
