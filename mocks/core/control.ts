/**
 * @module
 * One control call through its row of the table: the cross-site check, the control token,
 * the parameters and body, then the handler, on the session the request names.
 */

import { refuseWithoutControlToken } from './control-auth.ts'
import type { ControlContext, ControlMatch } from './control-context.ts'
import { type ControlOriginRule, refuseCrossSiteControl } from './control-origin.ts'
import { notFound } from './errors.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import { otherMethodResponse } from './method-rules.ts'
import { readJsonBody } from './pipeline.ts'
import { decodeParams } from './router.ts'
import { parseInput } from './validation.ts'

interface ControlRequest {
  method: string
  path: string
  /** The route the sandbox's router matched, if any. */
  route: ControlMatch | undefined
  /** Methods the path has when no route matched (a 405 with `Allow`), else `[]`. */
  allowed: readonly string[]
  query: URLSearchParams
  request: SandboxRequest
  session: string
  /** When set, every call but the public ones needs `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
  /** Which origins besides the request's own may change state (`createControlOriginRule`). */
  controlOrigins: ControlOriginRule
}

export async function handleControl(
  sandbox: ControlContext,
  control: ControlRequest,
): Promise<SandboxResponse> {
  const { method, path, query, request, session } = control
  const found = control.route
  // A cross-site page's call is refused before anything runs, a valid token or not.
  const crossSite = refuseCrossSiteControl(request, method, control.controlOrigins)
  if (crossSite) return crossSite
  // Only a public route is open without the token: an unknown one is not told apart.
  if (control.controlToken !== undefined && found?.route.access !== 'public') {
    const refusal = refuseWithoutControlToken(request, control.controlToken)
    if (refusal) return refusal
  }
  const handle = found?.route.handle
  if (!found || !handle) {
    // A route of the server's console (dashboard, docs, events) is not served here: 404.
    if (!found && control.allowed.length > 0) {
      return otherMethodResponse(method, path, control.allowed)
    }
    throw notFound(`Cannot ${method} ${path}`)
  }
  const { route } = found
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
    const read = readJsonBody(
      request.body,
      request.headers['content-type'],
      sandbox.settings.bodyLimitBytes,
      request.bodyTooLarge,
    )
    const parsed = parseInput(route.body, read, 'body')
    if (!parsed.ok) throw parsed.error
    body = parsed.data
  }
  return handle({
    sandbox,
    session,
    params,
    query,
    request,
    body,
  })
}
