/**
 * @module
 * The dashboard's live journal: `GET /__sandbox/events` read with `fetch` as a stream of
 * server-sent events, so that it carries the control token and the session as headers (an
 * `EventSource` sends neither); it reconnects a second after a drop, as `EventSource` would.
 */
import type { JournalEntry } from '../../mocks/runtimes/devtools/api.ts'
import { SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'

const RETRY_MS = 1000

/** The `requests` events of `text`'s complete blocks, and what is left of it. */
function readEvents(text: string, onEntries: (entries: JournalEntry[]) => void): string {
  let rest = text
  let end = rest.indexOf('\n\n')
  while (end !== -1) {
    const block = rest.slice(0, end)
    rest = rest.slice(end + 2)
    const data = /^data: (.*)$/m.exec(block)?.[1]
    if (data !== undefined && /^event: requests$/m.test(block)) {
      onEntries(JSON.parse(data) as JournalEntry[])
    }
    end = rest.indexOf('\n\n')
  }
  return rest
}

/** Follows the journal of `session` until the returned function is called. */
export function followJournal(
  session: string,
  headers: () => Record<string, string>,
  onEntries: (entries: JournalEntry[]) => void,
  onLive: (live: boolean) => void,
): () => void {
  const stop = new AbortController()
  async function read(): Promise<void> {
    const response = await fetch(`events?session=${encodeURIComponent(session)}`, {
      headers: { ...headers(), [SESSION_HEADER]: session },
      signal: stop.signal,
    })
    if (!response.ok || !response.body) return
    onLive(true)
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text = readEvents(text + chunk.value, onEntries)
    }
  }
  void (async () => {
    while (!stop.signal.aborted) {
      await read().catch(() => undefined)
      if (stop.signal.aborted) return
      onLive(false)
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
    }
  })()
  return () => stop.abort()
}
