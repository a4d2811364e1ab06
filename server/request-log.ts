/**
 * @module
 * One terminal line per request: status, method, path, time, `dryRun` and session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseCookies } from '../mocks/core/http.ts'
import { SESSION_COOKIE, SESSION_HEADER } from '../mocks/core/sandbox.ts'

export interface RequestLogEntry {
  method: string
  /** The path as the client sent it (with a mount prefix, if any), without the query. */
  path: string
  status: number
  durationMs: number
  /** The `dryRun` query value as sent, or `undefined`. */
  dryRun: string | undefined
  session: string
}

/** `201 POST /bookings/bkg_pending/decline 1.8 ms dryRun=true session=default` */
export function formatRequestLog(entry: RequestLogEntry): string {
  const dryRun = entry.dryRun === undefined ? '' : ` dryRun=${entry.dryRun}`
  return `${entry.status} ${entry.method} ${entry.path} ${entry.durationMs.toFixed(1)} ms${dryRun} session=${entry.session}`
}

function sessionOf(headers: Record<string, string | string[] | undefined>): string {
  const header = headers[SESSION_HEADER]
  if (typeof header === 'string' && header !== '') return header
  const cookie = headers.cookie
  return (typeof cookie === 'string' && parseCookies(cookie)[SESSION_COOKIE]) || 'default'
}

/**
 * Returns a function that logs a request once its response has been sent (or its
 * connection closed). `originalUrl` is Express's full URL, prefix included.
 */
export function createRequestLogger(
  log: (line: string) => void,
): (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now()
    const url = req.originalUrl ?? req.url ?? '/'
    const mark = url.indexOf('?')
    const query = mark === -1 ? undefined : new URLSearchParams(url.slice(mark + 1))
    const done = () => {
      res.off('finish', done)
      res.off('close', done)
      log(
        formatRequestLog({
          method: req.method ?? 'GET',
          path: mark === -1 ? url : url.slice(0, mark),
          status: res.writableFinished ? res.statusCode : 499,
          durationMs: performance.now() - started,
          dryRun: query?.get('dryRun') ?? undefined,
          session: sessionOf(req.headers),
        }),
      )
    }
    res.on('finish', done)
    res.on('close', done)
  }
}

/** Writes a line to standard output. */
export function logToStdout(line: string): void {
  process.stdout.write(`${line}\n`)
}
