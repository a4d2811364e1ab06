/**
 * @module
 * Session picker, scenario and seed, and the reset button.
 */
import { html } from 'htm/preact'
import { useEffect, useState } from 'preact/hooks'
import { type Api, problemsOf } from './api.ts'

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
  const [draft, setDraft] = useState(api.session)
  const [scenario, setScenario] = useState('')
  const [seed, setSeed] = useState('')
  const [status, setStatus] = useState('')

  const load = async () => {
    const [listed, named] = await Promise.all([
      api.control<SessionInfo[]>('sessions'),
      api.control('scenarios'),
    ])
    setSessions(listed.body)
    setScenarios(named.body)
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

  const reset = async (event: Event) => {
    event.preventDefault()
    const body: Record<string, unknown> = { scenario }
    if (seed !== '') body.seed = Number(seed)
    const answer = await api.control('reset', { body })
    setStatus(
      answer.ok
        ? `Session ${answer.body.session} reset to ${answer.body.scenario} (seed ${answer.body.seed})`
        : problemsOf(answer).join('; '),
    )
    await load()
    props.onReset()
  }

  return html`
    <section aria-labelledby="session-heading" class="panel">
      <h2 id="session-heading">Session</h2>
      <form class="row" onSubmit=${(event: Event) => {
        event.preventDefault()
        props.onSession(draft.trim() || 'default')
      }}>
        <label>Session id
          <input name="session" list="session-ids" value=${draft}
            onInput=${(event: Event) => setDraft((event.target as HTMLInputElement).value)} />
        </label>
        <datalist id="session-ids">
          ${sessions.map((session) => html`<option value=${session.id}></option>`)}
        </datalist>
        <button type="submit">Open session</button>
      </form>
      <form class="row" onSubmit=${reset}>
        <div class="field"><label for="session-scenario">Scenario</label>
          <select id="session-scenario" value=${scenario} onChange=${(event: Event) => setScenario((event.target as HTMLSelectElement).value)}>
            ${scenarios.map((s) => html`<option value=${s.name} title=${s.description}>${s.name}</option>`)}
          </select>
        </div>
        <label>Seed
          <input type="number" min="0" step="1" value=${seed}
            onInput=${(event: Event) => setSeed((event.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Reset session</button>
      </form>
      <p role="status" class="status">${status}</p>
    </section>
  `
}
