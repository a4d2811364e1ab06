/**
 * @module
 * The sandbox dashboard: one page that sees and steers one session, with the devtools' panels
 * (`mocks/runtimes/devtools/`). Bundled by `npm run build:dashboard` (`scripts/build-dashboard.mjs`).
 */
import { html, render } from 'htm/preact'
import { useMemo, useState } from 'preact/hooks'
import { type ApiHost, createApi, type JournalEntry } from '../../mocks/runtimes/devtools/api.ts'
import { ClockPanel } from '../../mocks/runtimes/devtools/clock-panel.ts'
import { CollectionsPanel } from '../../mocks/runtimes/devtools/collections-panel.ts'
import { FaultsPanel } from '../../mocks/runtimes/devtools/faults-panel.ts'
import { JournalPanel } from '../../mocks/runtimes/devtools/journal-panel.ts'
import { PersonasPanel } from '../../mocks/runtimes/devtools/personas-panel.ts'
import { SessionPanel } from '../../mocks/runtimes/devtools/session-panel.ts'

/** The dashboard page's host: it is served at `/__sandbox/`, so its links are relative. */
const dashboardHost: ApiHost = {
  apiUrl: '..',
  watchJournal(session, onEntries, onLive) {
    const source = new EventSource(`events?session=${encodeURIComponent(session)}`)
    source.addEventListener('open', () => onLive(true))
    source.addEventListener('error', () => onLive(false))
    source.addEventListener('requests', (event) => {
      onEntries(JSON.parse((event as MessageEvent<string>).data) as JournalEntry[])
    })
    return () => source.close()
  },
  chooseSession: true,
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
render(html`<${App} />`, root)
