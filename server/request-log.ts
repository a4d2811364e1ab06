/**
 * @module
 * One terminal line per request: time, session, method, path, status, duration,
 * `dryRun` and the fault that changed the answer. Coloured on a terminal, or one
 * JSON object per line for machines (`--log json`). A text line shows what came from the
 * request with its control characters escaped (`printable`), so a request cannot forge a
 * line or drive the terminal; JSON escapes them by itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { inspect } from 'node:util'
import { FAULT_HEADER } from '../mocks/core/faults.ts'
import { printable } from '../mocks/core/printable.ts'
import { sessionIdOf } from '../mocks/core/session-id.ts'

export type LogFormat = 'text' | 'json'

export interface RequestLogEntry {
  /** ISO time the request arrived. */
  time: string
  session: string
  method: string
  /** The path as the client sent it (with a mount prefix, if any), without the query. */
  path: string
  /** 499 when the client went away first; 0 when a fault rule reset the connection. */
  status: number
  durationMs: number
  /** The `dryRun` query value as sent, or `undefined`. */
  dryRun: string | undefined
  /** The fault rule id (or `prefer`) that changed the answer, or `undefined`. */
  fault: string | undefined
}

export interface RequestLogOptions {
  /** `text` (default) or `json`. */
  format?: LogFormat
  /** Colour the text lines. Default `false`. */
  color?: boolean
}

type Style = 'dim' | 'cyan' | 'magenta' | 'red' | 'yellow' | 'green'

/** ANSI colours written as they are: the caller decided the output takes them. */
function paintWith(style: Style, text: string): string {
  const [open, close] = inspect.colors[style] ?? [0, 0]
  return `\u001b[${open}m${text}\u001b[${close}m`
}

function statusStyle(status: number): Style {
  if (status === 0 || status === 499) return 'magenta'
  if (status >= 500) return 'red'
  if (status >= 400) return 'yellow'
  return 'green'
}

/**
 * `09:30:12.345 default POST /bookings/bkg_pending/decline 201 1.8 ms dryRun=true fault=f1`,
 * always one line: the session, method, path, `dryRun` and fault are printed with their
 * control characters escaped (`qa\r\n...`, `\x1b`).
 */
export function formatRequestLog(entry: RequestLogEntry, color = false): string {
  const paint = (style: Style, text: string) => (color ? paintWith(style, text) : text)
  const time = entry.time.slice(11, 23)
  const status = entry.status === 0 ? 'RESET' : String(entry.status)
  const dryRun = entry.dryRun === undefined ? '' : ` dryRun=${printable(entry.dryRun)}`
  const fault =
    entry.fault === undefined ? '' : ` ${paint('magenta', `fault=${printable(entry.fault)}`)}`
  const session = printable(entry.session)
  const request = `${printable(entry.method)} ${printable(entry.path)}`
  return `${paint('dim', time)} ${paint('cyan', session)} ${request} ${paint(statusStyle(entry.status), status)} ${entry.durationMs.toFixed(1)} ms${dryRun}${fault}`
}

/** The same entry as one line of JSON, fields always present (`null` when absent). */
export function formatRequestLogJson(entry: RequestLogEntry): string {
  return JSON.stringify({
    time: entry.time,
    session: entry.session,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    ms: Math.round(entry.durationMs * 10) / 10,
    dryRun: entry.dryRun ?? null,
    fault: entry.fault ?? null,
  })
}

function statusOf(res: ServerResponse, fault: string | undefined): number {
  if (res.writableFinished) return res.statusCode
  return fault === undefined ? 499 : 0
}

/**
 * Returns a function that logs a request once its response has been sent (or its
 * connection closed). `originalUrl` is Express's full URL, prefix included.
 */
export function createRequestLogger(
  log: (line: string) => void,
  options: RequestLogOptions = {},
): (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void {
  const json = options.format === 'json'
  const color = options.color ?? false
  return (req, res) => {
    const started = performance.now()
    const time = new Date().toISOString()
    const url = req.originalUrl ?? req.url ?? '/'
    const mark = url.indexOf('?')
    const done = () => {
      res.off('finish', done)
      res.off('close', done)
      const header = res.getHeader(FAULT_HEADER)
      const fault = typeof header === 'string' ? header : undefined
      const entry: RequestLogEntry = {
        time,
        session: sessionIdOf(req.headers),
        method: req.method ?? 'GET',
        path: mark === -1 ? url : url.slice(0, mark),
        status: statusOf(res, fault),
        durationMs: performance.now() - started,
        dryRun:
          mark === -1
            ? undefined
            : (new URLSearchParams(url.slice(mark + 1)).get('dryRun') ?? undefined),
        fault,
      }
      log(json ? formatRequestLogJson(entry) : formatRequestLog(entry, color))
    }
    res.on('finish', done)
    res.on('close', done)
  }
}
