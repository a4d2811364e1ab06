/**
 * @module
 * Recorded answers as a stage plugged into the core: after the control API and fault
 * rules, before the model. With `only`, a request with no recording is refused.
 */
import type { SandboxStage } from '../../mocks/core/stage.ts'
import { noRecordingResponse, type Replay } from './replay.ts'

/** The stage that answers from `replay`. */
export function replayStage(replay: Replay): SandboxStage {
  return {
    async answer({ method, path, query, request, session }) {
      // A recorded answer is checked against the contract before it is first given.
      if (replay.checkLoaded) await replay.checkLoaded
      const answer = replay.answer({ method, path, query, body: request.body, session })
      if (answer) return answer
      return replay.only ? noRecordingResponse(method, path) : undefined
    },
    rewind: (session) => replay.rewind(session),
  }
}
