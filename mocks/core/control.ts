/**
 * @module
 * The control API under `/__sandbox`, for QA engineers and tests: health,
 * personas, scenarios, reset, collections, the request journal and the merged
 * contract. Calls act on the session the request names.
 */
import { z } from 'zod'
import { type CollectionName, collectionNames } from '../model/schemas.ts'
import { handleConsoleControl } from './console-control.ts'
import { controlRouteIsProtected, refuseWithoutControlToken } from './control-auth.ts'
import type { ControlContext } from './control-context.ts'
import { CONTROL_PREFIX, controlMethods } from './control-routes.ts'
import { handleSnapshotControl } from './control-snapshots.ts'
import { badRequest, notFound } from './errors.ts'
import { jsonResponse, type SandboxRequest, type SandboxResponse } from './http.ts'
import { otherMethodResponse } from './method-rules.ts'
import { readJsonBody } from './pipeline.ts'
import { namesSession } from './session-id.ts'
import { parseInput } from './validation.ts'

interface ControlRequest {
  method: string
  path: string
  query: URLSearchParams
  request: SandboxRequest
  session: string
  /** When set, every call but `GET /health` needs `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
}

const resetBody = z.strictObject({
  scenario: z.string().min(1).optional(),
  seed: z.number().int().nonnegative().optional(),
  snapshot: z.string().optional(),
})

export async function handleControl(
  sandbox: ControlContext,
  control: ControlRequest,
): Promise<SandboxResponse> {
  const { method, query, request, session } = control
  const route = control.path.slice(CONTROL_PREFIX.length).replace(/\/$/, '') || '/'
  if (control.controlToken !== undefined && controlRouteIsProtected(method, route)) {
    const refusal = refuseWithoutControlToken(request, control.controlToken)
    if (refusal) return refusal
  }

  if (method === 'GET' && route === '/health') {
    await sandbox.ready
    return jsonResponse(200, {
      status: 'ok',
      scenario: sandbox.settings.scenario,
      seed: sandbox.settings.seed,
    })
  }
  if (method === 'GET' && route === '/personas') {
    return jsonResponse(
      200,
      sandbox.personas.map(
        ({ key, publicId, displayName, email, roles, refreshToken, idpCode }) => ({
          key,
          publicId,
          displayName,
          email,
          roles,
          refreshToken,
          idpCode,
        }),
      ),
    )
  }
  if (method === 'GET' && route === '/scenarios') {
    return jsonResponse(
      200,
      Object.values(sandbox.scenarios).map(({ name, description }) => ({ name, description })),
    )
  }
  if (method === 'POST' && route === '/reset') {
    const body = readJsonBody(
      request.body,
      request.headers['content-type'],
      sandbox.settings.bodyLimitBytes,
      request.bodyTooLarge,
    )
    const parsed = parseInput(resetBody, body, 'body')
    if (!parsed.ok) throw parsed.error
    const result = await sandbox.reset({ ...stripUndefined(parsed.data), session })
    return jsonResponse(200, result)
  }
  if (method === 'GET' && route.startsWith('/collections/')) {
    const name = safeDecode(route.slice('/collections/'.length))
    if (!(collectionNames as string[]).includes(name)) {
      throw notFound(`Unknown collection "${name}" (known: ${collectionNames.join(', ')})`)
    }
    const store = await sandbox.store(session)
    return jsonResponse(200, store[name as CollectionName].all())
  }
  if (route === '/requests' && (method === 'GET' || method === 'DELETE')) {
    const only =
      namesSession(request.headers) || query.has('session')
        ? (query.get('session') ?? session)
        : undefined
    if (method === 'DELETE') {
      sandbox.journal.clear(only)
      return { status: 204, headers: {}, setCookie: [], body: undefined }
    }
    return jsonResponse(200, sandbox.journal.list(only))
  }
  if (method === 'GET' && route === '/requests.har') {
    const only =
      namesSession(request.headers) || query.has('session')
        ? (query.get('session') ?? session)
        : undefined
    const host = request.headers.host
    const har = sandbox.journal.toHar({
      ...(only === undefined ? {} : { session: only }),
      ...(host ? { baseUrl: `http://${host}` } : {}),
    })
    return jsonResponse(200, har)
  }
  if (method === 'GET' && route === '/openapi.json') {
    if (!sandbox.openapiDocument)
      throw notFound('The merged OpenAPI document is not available in this runtime')
    return jsonResponse(200, await sandbox.openapiDocument())
  }
  const answer =
    (await handleConsoleControl(sandbox, method, route, request, session)) ??
    (await handleSnapshotControl(sandbox, { method, route, request, session }))
  if (answer) return answer
  const allowed = controlMethods(route)
  // A route of the server's console (dashboard, docs, events) is not served here: 404.
  if (allowed.length > 0 && !allowed.includes(method)) {
    return otherMethodResponse(method, control.path, allowed)
  }
  throw notFound(`Cannot ${method} ${control.path}`)
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw badRequest('Validation failed', ['name is not a valid URL path segment'])
  }
}
