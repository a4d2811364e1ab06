/**
 * @module
 * Session picker (on the dashboard only), the reset to a scenario and seed or to a saved
 * snapshot, and saving the session as a snapshot (asking before it replaces one: 409).
 */
import { html } from 'htm/preact'
import { useEffect, useState } from 'preact/hooks'
import { type Api, fieldValue, onSubmit, problemText } from './api.ts'

/** Marks a saved snapshot among the scenarios of the reset's list. */
const SNAPSHOT = 'snapshot:'

interface SessionInfo {
  id: string
  scenario: string
  seed: number
}

export function SessionPanel(props: {
  api: Api
  onSession: (id: string) => void
  onReset: () => void
}) {
  const { api } = props
  const [sessions, setSessions] = useState<SessionInfo[]>([])
  const [scenarios, setScenarios] = useState<{ name: string; description: string }[]>([])
  const [snapshots, setSnapshots] = useState<{ name: string; scenario: string }[]>([])
  const [draft, setDraft] = useState(api.session)
  const [scenario, setScenario] = useState('')
  const [seed, setSeed] = useState('')
  const [status, setStatus] = useState('')
  const [snapshotName, setSnapshotName] = useState('')

  const load = async () => {
    const [listed, named, saved] = await Promise.all([
      api.control<SessionInfo[]>('sessions'),
      api.control('scenarios'),
      api.control('snapshots'),
    ])
    setSessions(listed.body)
    setScenarios(named.body)
    setSnapshots(saved.ok ? saved.body : [])
    const current = listed.body.find((session) => session.id === api.session)
    if (current) {
      setScenario(current.scenario)
      setSeed(String(current.seed))
    }
  }
  useEffect(() => {
    setDraft(api.session)
    void load()
  }, [api])

  const reset = async () => {
    const snapshot = scenario.startsWith(SNAPSHOT) ? scenario.slice(SNAPSHOT.length) : undefined
    const body: Record<string, unknown> = snapshot === undefined ? { scenario } : { snapshot }
    if (snapshot === undefined && seed !== '') body.seed = Number(seed)
    const answer = await api.control('reset', { body })
    setStatus(
      !answer.ok
        ? problemText(answer)
        : answer.body.snapshot
          ? `Session ${answer.body.session} reset to snapshot ${answer.body.snapshot}`
          : `Session ${answer.body.session} reset to ${answer.body.scenario} (seed ${answer.body.seed})`,
    )
    await load()
    props.onReset()
  }

  const save = async () => {
    const name = snapshotName.trim()
    let answer = await api.control('snapshots', { body: { name } })
    // Taken by a saved snapshot (a scenario's name cannot be replaced): ask, then replace.
    if (
      answer.status === 409 &&
      !scenarios.some((s) => s.name === name) &&
      confirm(`${problemText(answer)}\n\nReplace snapshot "${name}"?`)
    ) {
      answer = await api.control('snapshots', { body: { name, replace: true } })
    }
    setStatus(
      answer.ok
        ? `Session ${answer.body.session} saved as snapshot ${answer.body.name}`
        : answer.status === 409
          ? `Snapshot ${name} not saved: ${problemText(answer)}`
          : problemText(answer),
    )
    await load()
  }

  return html`
    <section aria-labelledby="session-heading" class="panel">
      <h2 id="session-heading">Session</h2>
      <p class="help">A session is one caller's own records, fault rules, clock and journal; a reset starts it again from a scenario (seeded data) or a snapshot (a session's state saved under a name).</p>
      ${!api.host.chooseSession && html`<p>This page's session: <code>${api.session}</code></p>`}
      ${
        api.host.chooseSession &&
        html`<form class="row" onSubmit=${onSubmit(() => props.onSession(draft.trim() || 'default'))}>
        <label>Session id
          <input name="session" list="session-ids" value=${draft} onInput=${(event: Event) => setDraft(fieldValue(event))} />
        </label>
        <datalist id="session-ids">
          ${sessions.map((session) => html`<option value=${session.id}></option>`)}
        </datalist>
        <button type="submit">Open session</button>
      </form>`
      }
      <form class="row" onSubmit=${onSubmit(reset)}>
        <div class="field"><label for="session-scenario">Scenario or snapshot</label>
          <select id="session-scenario" value=${scenario} onChange=${(event: Event) => setScenario(fieldValue(event))}>
            <optgroup label="Scenarios">
              ${scenarios.map((s) => html`<option value=${s.name} title=${s.description}>${s.name}</option>`)}
            </optgroup>
            ${
              snapshots.length > 0 &&
              html`<optgroup label="Saved snapshots">
                ${snapshots.map((saved) => html`<option value=${SNAPSHOT + saved.name}>${saved.name} (snapshot of ${saved.scenario})</option>`)}
              </optgroup>`
            }
          </select>
        </div>
        <label>Seed
          <input type="number" min="0" step="1" value=${seed} disabled=${scenario.startsWith(SNAPSHOT)} onInput=${(event: Event) => setSeed(fieldValue(event))} />
        </label>
        <button type="submit">Reset session</button>
      </form>
      <form class="row" onSubmit=${onSubmit(save)}>
        <label>Snapshot name
          <input name="snapshot-name" required value=${snapshotName} onInput=${(event: Event) => setSnapshotName(fieldValue(event))} />
        </label>
        <button type="submit">Save snapshot</button>
      </form>
      <p role="status" class="status">${status}</p>
    </section>
  `
}
