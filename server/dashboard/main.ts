/**
 * @module
 * The sandbox dashboard: one page that sees and steers one session, with the devtools' panels
 * (`mocks/runtimes/devtools/`). With a control token, it asks for the token once and keeps it
 * for the tab (`sessionStorage`); every control call and the live journal send it. Bundled by
 * `npm run build:dashboard` (`scripts/build-dashboard.mjs`).
 */
import { html, render } from 'htm/preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { type ApiHost, createApi, fieldValue, onSubmit } from '../../mocks/runtimes/devtools/api.ts'
import { ClockPanel } from '../../mocks/runtimes/devtools/clock-panel.ts'
import { CollectionsPanel } from '../../mocks/runtimes/devtools/collections-panel.ts'
import { FaultsPanel } from '../../mocks/runtimes/devtools/faults-panel.ts'
import { JournalPanel } from '../../mocks/runtimes/devtools/journal-panel.ts'
import { PersonasPanel } from '../../mocks/runtimes/devtools/personas-panel.ts'
import { SessionPanel } from '../../mocks/runtimes/devtools/session-panel.ts'
import { followJournal } from './journal-feed.ts'

const TOKEN_KEY = 'platform-sandbox:control-token'

/** The control token this tab was given, as the header every control call sends. */
function controlHeaders(): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY)
  return token ? { authorization: `Bearer ${token}` } : {}
}

/** The dashboard page's host: it is served at `/__sandbox/`, so its links are relative. */
const dashboardHost: ApiHost = {
  apiUrl: '..',
  watchJournal: (session, onEntries, onLive) =>
    followJournal(session, controlHeaders, onEntries, onLive),
  chooseSession: true,
  controlHeaders,
}

/** Whether the control API answers this tab: `asking` for a token until it does. */
type Access = 'checking' | 'open' | 'asking' | 'refused'

async function checkAccess(): Promise<Access> {
  const answer = await fetch('scenarios', { headers: controlHeaders() })
  if (answer.status !== 401) return 'open'
  return sessionStorage.getItem(TOKEN_KEY) ? 'refused' : 'asking'
}

/** The form that asks for the control token, once per tab. */
function TokenForm(props: { refused: boolean; onToken: () => void }) {
  const [token, setToken] = useState('')
  const submit = () => {
    sessionStorage.setItem(TOKEN_KEY, token.trim())
    props.onToken()
  }
  return html`
    <section aria-labelledby="token-heading" class="panel">
      <h2 id="token-heading">Control token</h2>
      <p>This sandbox's control API needs its control token (<code>--control-token</code>). It is kept in this tab only.</p>
      ${props.refused ? html`<p role="alert">That token was refused: check it and try again.</p>` : null}
      <form onSubmit=${onSubmit(submit)}>
        <label>Control token <input type="password" autocomplete="off" value=${token} onInput=${(event: Event) => setToken(fieldValue(event))} /></label>
        <button type="submit" disabled=${token.trim() === ''}>Open the dashboard</button>
      </form>
    </section>
  `
}

function Dashboard() {
  const [access, setAccess] = useState<Access>('checking')
  // A sandbox that cannot be reached: the panels say so.
  const check = () => void checkAccess().then(setAccess, () => setAccess('open'))
  useEffect(check, [])
  if (access === 'open') return html`<${App} />`
  if (access === 'checking') return html`<p>Loading the dashboard...</p>`
  return html`
    <header><h1>Platform API sandbox</h1></header>
    <main><${TokenForm} refused=${access === 'refused'} onToken=${check} /></main>
  `
}

function App() {
  const initial = new URLSearchParams(location.search).get('session') || 'default'
  const [session, setSession] = useState(initial)
  /** Bumped after a reset, so every panel reloads. */
  const [generation, setGeneration] = useState(0)
  const api = useMemo(() => createApi(session, dashboardHost), [session])
  const choose = (next: string) => {
    const url = new URL(location.href)
    url.searchParams.set('session', next)
    history.replaceState(null, '', url)
    setSession(next)
  }
  const key = `${session}#${generation}`
  return html`
    <header>
      <h1>Platform API sandbox</h1>
      <nav aria-label="Links"><a href="docs">API reference</a> · <a href="openapi.json">openapi.json</a></nav>
      <p class="help">Each panel says what its words mean; more in the package's <code>docs/qa/dashboard.md</code>.</p>
    </header>
    <main>
      <${SessionPanel} api=${api} onSession=${choose} onReset=${() => setGeneration((g) => g + 1)} />
      <div class="columns">
        <div>
          <${PersonasPanel} key=${key} api=${api} />
          <${ClockPanel} key=${key} api=${api} />
          <${FaultsPanel} key=${key} api=${api} />
        </div>
        <div>
          <${JournalPanel} key=${key} api=${api} />
          <${CollectionsPanel} key=${key} api=${api} />
        </div>
      </div>
    </main>
  `
}

const root = document.getElementById('dashboard')!
root.textContent = ''
render(html`<${Dashboard} />`, root)
