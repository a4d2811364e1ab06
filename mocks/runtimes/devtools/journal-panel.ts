/**
 * @module
 * The session's request journal, newest first, kept live by the host (server-sent events
 * on the dashboard, the sandbox's own events in an app's page).
 */
import { html } from 'htm/preact'
import { useEffect, useState } from 'preact/hooks'
import type { Api, JournalEntry } from './api.ts'

const KEPT = 300

/** What a write changed, on one line: `bookings ~bkg_1 {"status":["pending","declined"]} +ntf_2`. */
const changesLine = (changes: NonNullable<JournalEntry['changes']>) =>
  Object.entries(changes)
    .map(([name, { created = [], changed = {}, deleted = [], more } = {}]) =>
      [name, ...created.map((id) => `+${id}`), ...deleted.map((id) => `−${id}`)]
        .concat(Object.entries(changed).map(([id, fields]) => `~${id} ${JSON.stringify(fields)}`))
        .concat(more ? [`${more} more`] : [])
        .join(' '),
    )
    .join(' · ')

export function JournalPanel(props: { api: Api }) {
  const { api } = props
  const [entries, setEntries] = useState<JournalEntry[]>([])
  const [live, setLive] = useState(false)
  const [appOnly, setAppOnly] = useState(false)

  useEffect(() => {
    let closed = false
    void api.control<JournalEntry[]>('requests').then((answer) => {
      if (!closed) setEntries((current) => [...current, ...answer.body.reverse()].slice(0, KEPT))
    })
    const stop = api.host.watchJournal(
      api.session,
      (added) => setEntries((current) => [...[...added].reverse(), ...current].slice(0, KEPT)),
      setLive,
    )
    return () => {
      closed = true
      stop()
    }
  }, [api])

  const clear = async () => {
    await api.control('requests', { method: 'DELETE' })
    setEntries([])
  }

  return html`
    <section aria-labelledby="journal-heading" class="panel">
      <h2 id="journal-heading">Requests <span class=${live ? 'live on' : 'live'}>${live ? 'live' : 'offline'}</span></h2>
      <p class="help">Each row is one request of this session, newest first: its status (with a refusal's message), who called, the fault rule that answered; under a write, what it changed.</p>
      <button type="button" onClick=${clear}>Clear journal</button>
      <label><input type="checkbox" checked=${appOnly} onChange=${() => setAppOnly(!appOnly)} /> The app's requests only</label>
      <div class="scroll">
        <table data-testid="journal">
          <caption class="visually-hidden">Requests of this session, newest first</caption>
          <thead><tr>
            <th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th>
            <th scope="col">Persona</th><th scope="col">ms</th><th scope="col">dryRun</th><th scope="col">Fault</th>
          </tr></thead>
          <tbody>
            ${entries.map((entry) =>
              appOnly && entry.client
                ? null
                : html`<tr class=${entry.fault ? 'faulted' : ''}>
                <td>${entry.time.slice(11, 19)}</td>
                <td><code>${entry.method} ${entry.path}</code>${entry.message && html`<span class="message" title=${entry.message}>${entry.message}</span>`}</td>
                <td class=${`status s${String(entry.status)[0]}`}>${entry.status === 0 ? 'network error' : entry.status}</td>
                <td>${entry.persona ?? ''}</td>
                <td>${entry.durationMs.toFixed(1)}</td>
                <td>${entry.dryRun === true ? 'yes' : 'no'}</td>
                <td>${entry.fault ?? ''}${entry.gateway ? html` <span class="badge">gateway</span>` : ''}</td>
              </tr>${entry.changes && html`<tr class="changes"><td colspan="7">${changesLine(entry.changes)}</td></tr>`}`,
            )}
          </tbody>
        </table>
      </div>
    </section>
  `
}
