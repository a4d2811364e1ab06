/**
 * @module
 * The optional bearer token of the control API. A sandbox shared on a network (or behind
 * a load balancer) exposes reset, every collection (refresh tokens included) and the
 * request journal under `/__sandbox`; with a control token those calls need
 * `Authorization: Bearer <token>`. `GET /__sandbox/health` stays open, so load balancers
 * and readiness probes need no secret: it tells only the scenario, the seed and how much the sandbox holds. Which route
 * is open is said by its `access` in `control-table.ts`.
 */
import { readBearer } from './caller.ts'
import { SandboxError } from './errors.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'

/** Compares in time that depends on the lengths only, not on where the strings differ. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length
  for (let i = 0; i < expected.length; i++) {
    difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i)
  }
  return difference === 0
}

/** A 401 with `WWW-Authenticate` unless `request` carries `Authorization: Bearer <token>`. */
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
