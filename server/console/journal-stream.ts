/**
 * @module
 * The live journal as server-sent events (`GET /__sandbox/events`): at most one `requests`
 * event per 100 ms, a JSON array, so a busy sandbox writes a few a second, not one per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JournalEntry } from '../../mocks/core/index.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'

const FLUSH_MS = 100
const HEARTBEAT_MS = 15_000

const openStreams = new WeakMap<Sandbox, Set<ServerResponse>>()

/** Streams the journal entries of `session` (every session when `undefined`). */
export function streamJournal(
  sandbox: Sandbox,
  session: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  })
  res.write(`retry: 1000\n\n`)
  let pending: JournalEntry[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    if (pending.length === 0) return
    res.write(`event: requests\ndata: ${JSON.stringify(pending)}\n\n`)
    pending = []
  }
  const subscription = new AbortController()
  const add = (entry: JournalEntry) => {
    if (session !== undefined && entry.session !== session) return
    pending.push(entry)
    timer ??= setTimeout(flush, FLUSH_MS)
  }
  // With a shared store, every process's entries (this one's among them) come through it.
  const { shared } = sandbox.journal
  if (shared) subscription.signal.addEventListener('abort', shared.follow(add))
  else
    sandbox.events.on('request:end', ({ data }) => add(data.entry), { signal: subscription.signal })
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
  heartbeat.unref()
  const streams = openStreams.get(sandbox) ?? new Set()
  openStreams.set(sandbox, streams)
  streams.add(res)
  const stop = () => {
    subscription.abort()
    clearInterval(heartbeat)
    if (timer) clearTimeout(timer)
    streams.delete(res)
  }
  req.on('close', stop)
  res.on('close', stop)
}

/** Ends the open streams of `sandbox`, so a closing server need not wait for them. */
export function closeJournalStreams(sandbox: Sandbox): void {
  for (const res of openStreams.get(sandbox) ?? []) res.end()
}
