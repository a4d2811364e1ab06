/**
 * @module
 * No cross-site page drives the control API: CORS only hides the answer of a body-less
 * `POST /__sandbox/reset` after it ran, so a call that changes state from an `Origin` that is
 * neither the request's own (its `Host`, any scheme) nor allowed (`controlOrigins`) is a 403
 * before anything runs, token or not. No `Origin` is no page (curl); `Origin: null` is refused.
 */
import { SandboxError } from './errors.ts'
import type { SandboxRequest, SandboxResponse } from './http.ts'
import { createOriginMatcher, isSerializedOrigin, LOCAL_ORIGINS } from './origins.ts'

/** Whether a page of an origin other than the request's own may change state. */
export type ControlOriginRule = (origin: string) => boolean

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The rule for `origins`: exact origins and `*` patterns, as CORS takes them; a `*` alone
 * allows none here (it opens the API to every page, not the control API). Default: the local
 * development origins.
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
 * A 403 when `request` changes state from a page whose origin is neither its own nor one
 * `allowed` takes; `undefined` to go on. `method` is the request's, in upper case.
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
