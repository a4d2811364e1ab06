/**
 * @module
 * The optional control token: a shared sandbox exposes reset, every collection and the
 * journal, so with a token those calls need `Authorization: Bearer <token>`. Which routes stay
 * open (the health check, for load balancers) is their `access` in the control table.
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
