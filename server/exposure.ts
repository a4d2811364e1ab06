/**
 * @module
 * Beyond loopback, anyone who reaches the port can reset the sandbox and read every collection
 * and the journal: the start-up warning, and the closed control API (unless a token or
 * `--control-open`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { jsonResponse } from '../mocks/core/http.ts'
import { writeAnswer } from './handler.ts'

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

/** A closed control API: answers a `/__sandbox` call but health with a 403 (returns `true`). */
export function refuseClosedControl(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '/'
  const mark = url.indexOf('?')
  const path = withoutTrailingSlashes(mark === -1 ? url : url.slice(0, mark))
  if (path !== '/__sandbox' && !path.startsWith('/__sandbox/')) return false
  if ((req.method === 'GET' || req.method === 'HEAD') && path === '/__sandbox/health') return false
  writeAnswer(
    res,
    jsonResponse(403, {
      message:
        'The control API is closed: this sandbox listens beyond loopback without a control token',
      code: 'FORBIDDEN',
      details: [HOW_TO_OPEN],
    }),
  )
  return true
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
