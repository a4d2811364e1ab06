/**
 * @module
 * Beyond loopback, anyone who reaches the port can reset the sandbox and read every collection
 * and the journal: the start-up warning, and the edge of the control API: closed (unless a
 * token or `--control-open`), and on loopback served to a loopback `Host` only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { jsonResponse, refuseInvalidSession, SandboxError } from '../mocks/core/index.ts'
import { contextOf, writeAnswer } from './handler.ts'
import type { AppOptions } from './options.ts'

/** How the control API answers: to anyone, with the control token only, or health only. */
export type ControlAccess = 'open' | 'token' | 'closed'

const HOW_TO_OPEN =
  'start the sandbox with SANDBOX_CONTROL_TOKEN (or --control-token) and send Authorization: Bearer <token>, or with SANDBOX_CONTROL_OPEN=true (or --control-open) to open it to anyone who can reach the port'

/** `localhost`, `127.0.0.0/8`, `::1` and their IPv4-mapped forms. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare) ||
    bare.endsWith('.localhost')
  )
}

/** Whether a `Host` header names loopback, with or without its port: `[::1]:4010`. */
function isLoopbackHostHeader(host = ''): boolean {
  const name = /^(\[[^\]]*\]|[^:]*)(:\d*)?$/.exec(host)?.[1]
  return name !== undefined && isLoopbackHost(name)
}

/** `http://<host>:<port>` as bound, IPv6 in brackets. */
export function listenAddress(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`
}

/** What the CLI's options make of the control API. */
export function controlAccess(
  host: string,
  token: string | undefined,
  open: boolean,
): ControlAccess {
  if (token !== undefined) return 'token'
  return open || isLoopbackHost(host) ? 'open' : 'closed'
}

/** Without the slashes it ends with, in one pass: `/\/+$/` was quadratic on a path of slashes. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length
  while (end > 0 && path[end - 1] === '/') end -= 1
  return path.slice(0, end)
}

const closed = () =>
  jsonResponse(403, {
    message:
      'The control API is closed: this sandbox listens beyond loopback without a control token',
    code: 'FORBIDDEN',
    details: [HOW_TO_OPEN],
  })

const foreignHost = (host: string | undefined) =>
  new SandboxError(
    403,
    `The control API answers Host ${host ?? '(none)'} only with a control token or --control-open`,
    [
      'without them only a loopback Host is served (localhost, *.localhost, 127.0.0.0/8, [::1]), so that neither a page of another site (DNS rebinding) nor a proxy in front of the sandbox opens it to others',
      HOW_TO_OPEN,
    ],
  ).toResponse()

/** Liveness and readiness: answered to anyone, for probes, which send no token. */
const PROBES = new Set(['/__sandbox/health', '/__sandbox/ready'])

/**
 * The server's edge of the control API, the dashboard and MCP: closed; without a control token
 * or `controlOpen`, a `Host` that is not loopback (403); on every path, the probes
 * (`GET /__sandbox/health` and `/ready`) included, a malformed session, by the core's rule (400).
 * `true` when it answered.
 */
export function createControlEdge(
  options: Pick<AppOptions, 'controlToken' | 'controlOpen' | 'controlClosed'>,
) {
  const byHost = options.controlToken === undefined && options.controlOpen !== true
  return function refuseAtControlEdge(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/'
    const mark = url.indexOf('?')
    const path = withoutTrailingSlashes(mark === -1 ? url : url.slice(0, mark))
    if (path !== '/__sandbox' && !path.startsWith('/__sandbox/')) return false
    // A probe answers anyone, but a malformed session is refused on every path.
    const probe = (req.method === 'GET' || req.method === 'HEAD') && PROBES.has(path)
    const { host } = req.headers
    const refusal =
      options.controlClosed && !probe
        ? closed()
        : byHost && !probe && !isLoopbackHostHeader(host)
          ? foreignHost(host)
          : refuseInvalidSession(contextOf(req).session)
    if (refusal) writeAnswer(res, refusal)
    return refusal !== undefined
  }
}

/** The start-up warning for a non-loopback `host`, or `undefined` for loopback. */
export function exposureWarning(
  host: string,
  port: number,
  control: ControlAccess,
): string | undefined {
  if (isLoopbackHost(host)) return undefined
  const everyone =
    host === '0.0.0.0' || host === '::' ? 'every network interface of this machine' : host
  const lines = [
    `Warning: listening on ${listenAddress(host, port)} exposes the sandbox on ${everyone}.`,
    '  Anyone who can reach this port can sign in as any persona (their refresh tokens and',
    '  idp codes are public), call every operation, and read and change every session.',
  ]
  if (control === 'token') {
    lines.push(
      '  The control API (/__sandbox/*, but /__sandbox/health) requires the control token.',
    )
  } else if (control === 'closed') {
    lines.push(
      '  The control API is closed (403): only /__sandbox/health answers. Give it a token with',
      '  --control-token <token> (or SANDBOX_CONTROL_TOKEN), or open it with --control-open',
      '  (or SANDBOX_CONTROL_OPEN=true) on a throwaway sandbox.',
    )
  } else {
    lines.push(
      '  The control API is open too (--control-open): /__sandbox/reset, /__sandbox/collections/:name',
      '  (refresh tokens included), /__sandbox/requests (the journal) and /__sandbox/personas.',
      '  Protect it with --control-token <token> (or SANDBOX_CONTROL_TOKEN).',
    )
  }
  return lines.join('\n')
}
