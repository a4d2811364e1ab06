/**
 * @module
 * One line per request, coloured on a terminal or as JSON (`--log json`). A text line shows
 * what came from the request with its control characters escaped (`printable`), so a request
 * cannot forge a line or drive the terminal; JSON escapes them by itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { inspect } from 'node:util'
import { FAULT_HEADER, printable } from '../mocks/core/index.ts'
import { contextOf } from './handler.ts'

interface RequestLogEntry {
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

/** `09:30:12.345 default POST /bookings/bkg_pending/decline 201 1.8 ms dryRun=true fault=f1`. */
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

/** Logs a request once it is answered or its connection closed (`originalUrl`: with the prefix). */
export function createRequestLogger(
  log: (line: string) => void,
  { format, color = false }: { format?: 'text' | 'json'; color?: boolean } = {},
): (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void {
  const json = format === 'json'
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
      // What the sandbox read of the request (its context, made once).
      const { session, query } = contextOf(req)
      const entry: RequestLogEntry = {
        time,
        session,
        method: req.method ?? 'GET',
        path: mark === -1 ? url : url.slice(0, mark),
        status: res.writableFinished ? res.statusCode : fault === undefined ? 499 : 0,
        durationMs: performance.now() - started,
        dryRun: query.get('dryRun') ?? undefined,
        fault,
      }
      if (!json) return log(formatRequestLog(entry, color))
      // Every field present, `null` when absent.
      const { durationMs, dryRun, fault: faultId, ...fields } = entry
      const ms = Math.round(durationMs * 10) / 10
      log(JSON.stringify({ ...fields, ms, dryRun: dryRun ?? null, fault: faultId ?? null }))
    }
    res.on('finish', done)
    res.on('close', done)
  }
}
