/**
 * @module
 * The control API's saved snapshots and scenario uploads:
 * `POST /__sandbox/snapshots { name }`, `GET /__sandbox/snapshots`,
 * `GET|DELETE /__sandbox/snapshots/:name` and `POST /__sandbox/scenarios` (a scenario
 * file as JSON). Answers `undefined` for any other route.
 */
import { z } from 'zod'
import { ScenarioError } from '../scenarios/compile-scenarios.ts'
import type { ControlContext } from './control-context.ts'
import { badRequest } from './errors.ts'
import { jsonResponse, type SandboxRequest, type SandboxResponse } from './http.ts'
import { readJsonBody } from './pipeline.ts'
import { parseInput } from './validation.ts'

const saveBody = z.strictObject({ name: z.string() })

function body(sandbox: ControlContext, request: SandboxRequest): unknown {
  return readJsonBody(
    request.body,
    request.headers['content-type'],
    sandbox.settings.bodyLimitBytes,
    request.bodyTooLarge,
  )
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw badRequest('Validation failed', ['name is not a valid URL path segment'])
  }
}

export async function handleSnapshotControl(
  sandbox: ControlContext,
  {
    method,
    route,
    request,
    session,
  }: { method: string; route: string; request: SandboxRequest; session: string },
): Promise<SandboxResponse | undefined> {
  if (route === '/snapshots' && method === 'POST') {
    const parsed = parseInput(saveBody, body(sandbox, request), 'body')
    if (!parsed.ok) throw parsed.error
    return jsonResponse(201, await sandbox.snapshots.save(parsed.data.name, { session }))
  }
  if (route === '/snapshots' && method === 'GET') return jsonResponse(200, sandbox.snapshots.list())
  if (route.startsWith('/snapshots/') && (method === 'GET' || method === 'DELETE')) {
    const name = decoded(route.slice('/snapshots/'.length))
    if (method === 'GET') {
      const file = await sandbox.snapshots.export(name)
      const answer = jsonResponse(200, file)
      answer.headers['content-disposition'] = `attachment; filename="${name}.json"`
      return answer
    }
    sandbox.snapshots.get(name)
    sandbox.snapshots.delete(name)
    return { status: 204, headers: {}, setCookie: [], body: undefined }
  }
  if (route === '/scenarios' && method === 'POST') {
    try {
      const [scenario] = sandbox.addScenarios([body(sandbox, request) as never])
      return jsonResponse(201, { name: scenario!.name, description: scenario!.description })
    } catch (error) {
      if (error instanceof ScenarioError) throw badRequest('Invalid scenario', [...error.problems])
      throw error
    }
  }
  return undefined
}
