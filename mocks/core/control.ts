/**
 * @module
 * The control API's shapes, and one control call through its row of the table: the cross-site
 * check, the control token, the parameters and body, then the handler, on the request's session.
 */
import type { z } from '../model/zod.ts'
import { readBearer } from './caller.ts'
import { notFound, SandboxError } from './errors.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import { createOriginMatcher, isSerializedOrigin, LOCAL_ORIGINS } from './origins.ts'
import type { RequestContext } from './request-context.ts'
import { readJsonObject } from './request-input.ts'
import { decodeParams, otherMethodResponse, type RouteMatch } from './router.ts'
import type { SandboxCore, SandboxCoreOptions } from './sandbox-types.ts'
import type { Stage } from './stage.ts'
import { parseInput } from './validation.ts'

/** Where the control API is mounted on every runtime. */
export const CONTROL_PREFIX = '/__sandbox'

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

/** One control call, as a handler is given it: params decoded, body checked. */
export interface ControlCall {
  sandbox: SandboxCore
  /** The session the request names (`default` when it names none). */
  session: string
  params: Record<string, string>
  query: URLSearchParams
  context: RequestContext
  body: unknown
}

export interface ControlRoute {
  method: 'GET' | 'POST' | 'DELETE'
  /** The full path, with `{param}` segments, as the merged document names it. */
  path: string
  /**
   * `public` always (a load balancer's health check); `control` needs `Authorization: Bearer
   * <control token>` when the sandbox has one, and is open otherwise.
   */
  access: 'public' | 'control'
  body?: z.core.$ZodType
  /** Checked before the handler runs (decoded), as `query` is: 400 otherwise. */
  params?: z.ZodMiniObject
  query?: z.ZodMiniObject
  /** Answers the call in every runtime. Absent for a row a runtime answers itself. */
  handle?: (call: ControlCall) => Promise<SandboxResponse> | SandboxResponse
}

/** Compares in time that depends on the lengths only, not on where the strings differ. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length
  for (let i = 0; i < expected.length; i++) {
    difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i)
  }
  return difference === 0
}

/**
 * The optional control token: a shared sandbox exposes reset, every collection and the journal.
 * A 401 with `WWW-Authenticate` unless `request` carries `Authorization: Bearer <token>`.
 */
export function refuseWithoutControlToken(
  request: SandboxRequest,
  token: string,
): SandboxResponse | undefined {
  const bearer = readBearer(request.headers.authorization)
  if (bearer.ok && sameSecret(bearer.token, token)) return undefined
  return new SandboxError(
    401,
    !bearer.ok && bearer.problem === 'missing'
      ? 'The control API requires a token: send Authorization: Bearer <control token>'
      : 'Invalid control token',
    ['the token is the one given with --control-token or SANDBOX_CONTROL_TOKEN'],
    { 'www-authenticate': 'Bearer realm="sandbox control API"' },
  ).toResponse()
}

export type ControlOriginRule = (origin: string) => boolean

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The rule for `origins`, as CORS takes them; a `*` alone allows none here (it opens the API
 * to every page, not the control API). Default: the local development origins.
 */
export function createControlOriginRule(
  origins: readonly string[] = LOCAL_ORIGINS,
): ControlOriginRule {
  return createOriginMatcher(origins.filter((origin) => origin !== '*'))
}

/** Whether `origin` names the host and port of `host` (a `Host` header), whatever the scheme. */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || !/^[^\s/\\?#@]+$/.test(host) || !isSerializedOrigin(origin)) {
    return false
  }
  try {
    const page = new URL(origin)
    return new URL(`${page.protocol}//${host}`).host === page.host
  } catch {
    return false
  }
}

function refusal(origin: string): SandboxResponse {
  const details =
    origin === 'null'
      ? [
          'Origin null (a sandboxed iframe, a file:// page) is never allowed to change the sandbox',
          'call it from a page the sandbox serves or an allowed origin, or without a browser (curl, a test client)',
        ]
      : [
          `Origin ${origin} is neither the sandbox's own origin nor an allowed one`,
          `allow it with --cors-origin ${origin} (or SANDBOX_CORS_ORIGIN, or the server's corsOrigins option; controlOrigins for createSandbox); a * alone does not allow control calls`,
        ]
  return new SandboxError(
    403,
    `State-changing control calls from ${origin} are not allowed`,
    details,
  ).toResponse()
}

/**
 * No cross-site page drives the control API (decision 8): CORS only hides the answer of a
 * body-less `POST /__sandbox/reset` after it ran. A 403 when `request` changes state from an
 * `Origin` neither its own (its `Host`, any scheme) nor `allowed`; no `Origin` is no page
 * (curl), `Origin: null` is refused. `method` is the request's, in upper case.
 */
export function refuseCrossSiteControl(
  request: SandboxRequest,
  method: string,
  allowed: ControlOriginRule,
): SandboxResponse | undefined {
  const origin = request.headers.origin
  if (origin === undefined || READS.has(method)) return undefined
  if (origin !== 'null' && (isOwnOrigin(origin, request.headers.host) || allowed(origin))) {
    return undefined
  }
  return refusal(origin)
}

/**
 * The control API's stage: every request under `/__sandbox` is answered here, by its row of the
 * table (matched with the operations, once): the cross-site check, the control token, the
 * parameters and body, then the handler, on the request's session.
 */
export function controlStage(
  sandbox: SandboxCore,
  options: Pick<SandboxCoreOptions, 'controlToken' | 'controlOrigins'>,
  allowed: (path: string) => string[],
): Stage {
  const origins = createControlOriginRule(options.controlOrigins)
  const { controlToken } = options
  async function answer(context: RequestContext): Promise<SandboxResponse> {
    const { method, path, query, request, session } = context
    const found = context.route as RouteMatch<ControlRoute> | undefined
    // A cross-site page's call is refused before anything runs, a valid token or not.
    const crossSite = refuseCrossSiteControl(request, method, origins)
    if (crossSite) return crossSite
    // Only a public route is open without the token: an unknown one is not told apart.
    if (controlToken !== undefined && found?.value.access !== 'public') {
      const refusal = refuseWithoutControlToken(request, controlToken)
      if (refusal) return refusal
    }
    const handle = found?.value.handle
    if (!found || !handle) {
      // A row a runtime answers itself (`controlRoutes`) is not served here: 404.
      const methods = found ? [] : allowed(path)
      if (methods.length > 0) return otherMethodResponse(method, path, methods)
      throw notFound(`Cannot ${method} ${path}`)
    }
    const route = found.value
    const params = decodeParams(found.params)
    if (route.params) {
      const parsed = parseInput(route.params, params, 'params')
      if (!parsed.ok) throw parsed.error
    }
    if (route.query) {
      // A repeated parameter counts by its first value, as the handlers read it (`get`).
      const first = Object.fromEntries([...query.keys()].map((name) => [name, query.get(name)]))
      const parsed = parseInput(route.query, first, 'query')
      if (!parsed.ok) throw parsed.error
    }
    let body: unknown
    if (route.body) {
      const read = readJsonObject(context, sandbox.settings.bodyLimitBytes)
      const parsed = parseInput(route.body, read, 'body')
      if (!parsed.ok) throw parsed.error
      body = parsed.data
    }
    // Saved snapshots and uploaded scenarios another process of a shared store changed.
    if (/^\/__sandbox\/(snapshots|scenarios|reset)\b/.test(path)) await sandbox.refreshKept()
    return handle({ sandbox, session, params, query, context, body })
  }
  return (context, next) => (isControlPath(context.path) ? answer(context) : next())
}
