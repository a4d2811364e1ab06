/**
 * @module
 * The QA console's control calls, per session: fault rules (`/__sandbox/faults`)
 * and the clock (`/__sandbox/clock`). `undefined` for any other route, so the
 * control API goes on to its own.
 */
import { z } from 'zod'
import { collectionNames } from '../model/schemas.ts'
import type { ControlContext } from './control-context.ts'
import { badRequest, notFound } from './errors.ts'
import { jsonResponse, type SandboxRequest, type SandboxResponse } from './http.ts'
import { readJsonBody } from './pipeline.ts'
import { parseInput } from './validation.ts'

const clockBody = z
  .strictObject({
    now: z.iso.datetime({ offset: true }).optional(),
    advanceSeconds: z.number().finite().optional(),
  })
  .refine((body) => (body.now === undefined) !== (body.advanceSeconds === undefined), {
    message: 'give exactly one of now, advanceSeconds',
  })

const NO_CONTENT: SandboxResponse = { status: 204, headers: {}, setCookie: [], body: undefined }

function bodyOf(sandbox: ControlContext, request: SandboxRequest) {
  return readJsonBody(
    request.body,
    request.headers['content-type'],
    sandbox.settings.bodyLimitBytes,
    request.bodyTooLarge,
  )
}

export async function handleConsoleControl(
  sandbox: ControlContext,
  method: string,
  route: string,
  request: SandboxRequest,
  session: string,
): Promise<SandboxResponse | undefined> {
  if (route === '/sessions' && method === 'GET') {
    const ids = sandbox.sessionIds()
    if (!ids.includes(session)) ids.unshift(session)
    const sessions = []
    for (const id of ids) {
      const { snapshot } = await sandbox.store(id)
      sessions.push({ id, scenario: snapshot.scenario, seed: snapshot.seed })
    }
    return jsonResponse(200, sessions)
  }
  if (route === '/collections' && method === 'GET') {
    const store = await sandbox.store(session)
    return jsonResponse(
      200,
      Object.fromEntries(collectionNames.map((name) => [name, store[name].count()])),
    )
  }
  if (route === '/faults') {
    if (method === 'GET') return jsonResponse(200, sandbox.faults.list(session))
    if (method === 'DELETE') {
      sandbox.faults.clear(session)
      return NO_CONTENT
    }
    if (method === 'POST') {
      const body = bodyOf(sandbox, request)
      const store = await sandbox.store(session)
      const rule = sandbox.faults.add(session, body, {
        seed: store.snapshot.seed,
        operations: sandbox.operations,
        personaKeys: sandbox.personas.map((persona) => persona.key),
      })
      return jsonResponse(201, rule)
    }
  }
  if (route.startsWith('/faults/') && method === 'DELETE') {
    const id = route.slice('/faults/'.length)
    if (!sandbox.faults.remove(session, id)) {
      throw notFound(`No fault rule "${id}" in session "${session}"`)
    }
    return NO_CONTENT
  }
  if (route === '/clock') {
    if (method === 'GET') return jsonResponse(200, sandbox.clocks.state(session))
    if (method === 'DELETE') {
      sandbox.clocks.reset(session)
      return jsonResponse(200, sandbox.clocks.state(session))
    }
    if (method === 'POST') {
      const parsed = parseInput(clockBody, bodyOf(sandbox, request), 'body')
      if (!parsed.ok) throw parsed.error
      const { now, advanceSeconds } = parsed.data
      if (now !== undefined) {
        const date = new Date(now)
        if (Number.isNaN(date.getTime()))
          throw badRequest('Validation failed', ['now is not a date'])
        sandbox.clocks.set(session, date)
      } else sandbox.clocks.advance(session, advanceSeconds!)
      return jsonResponse(200, sandbox.clocks.state(session))
    }
  }
  return undefined
}
