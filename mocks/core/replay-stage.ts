/**
 * @module
 * The recorded-answers stage of a request: after the control API and fault rules,
 * before the model. With `only`, a request with no recording is refused.
 */
import { noRecordingResponse, type Replay } from '../recordings/replay.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'

export async function answerFromReplay(
  replay: Replay,
  method: string,
  path: string,
  query: URLSearchParams,
  request: SandboxRequest,
  session: string,
): Promise<SandboxResponse | undefined> {
  // A recorded answer is checked against the contract before it is first given.
  if (replay.checkLoaded) await replay.checkLoaded
  const answer = replay.answer({ method, path, query, body: request.body, session })
  if (answer) return answer
  return replay.only ? noRecordingResponse(method, path) : undefined
}
