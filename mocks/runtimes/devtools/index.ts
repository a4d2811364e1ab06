/**
 * @module
 * The in-page devtools (`platform-sandbox/devtools`): the panels the server's dashboard shows
 * too, in a Shadow DOM in an app's page or Storybook's preview, folded to a button in a corner.
 * Nothing else in the package imports it, so a bundle holds it only where the app imports it:
 *
 * @example
 * await startSandboxWorker({
 *   devtools: import.meta.env.DEV ? () => import('platform-sandbox/devtools') : undefined,
 * })
 */
import { html } from 'htm/preact'
import { render } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { SandboxEvents } from '../../core/index.ts'
import { type ApiHost, createApi, type JournalEntry, SANDBOX_SIGN_IN_EVENT } from './api.ts'
import { ClockPanel } from './clock-panel.ts'
import { CollectionsPanel } from './collections-panel.ts'
import { FaultsPanel } from './faults-panel.ts'
import { JournalPanel } from './journal-panel.ts'
import { PersonasPanel } from './personas-panel.ts'
import { SessionPanel } from './session-panel.ts'
import { DRAWER_WIDTH, devtoolsStyles, panelStyles } from './styles.ts'

export interface DevtoolsOptions {
  /** The page's sandbox: the journal is read from its events, live. */
  sandbox: { events: SandboxEvents }
  /** Where the sandbox answers: origin and path prefix, without a trailing `/`. */
  baseUrl: string
  /** The session the page's requests use. Default `default`. */
  session?: string
  /** Start unfolded. Default `false`. */
  open?: boolean
  /** Where the panel's element goes. Default `document.body`. */
  parent?: HTMLElement
}

export interface SandboxDevtools {
  /** The element that holds the shadow root. */
  readonly element: HTMLElement
  open(): void
  close(): void
  /** Reloads every panel: the state was reset from outside. */
  refresh(): void
  unmount(): void
}

const FLUSH_MS = 100

const TABS = [
  ['session', 'Session', SessionPanel],
  ['personas', 'Personas', PersonasPanel],
  ['faults', 'Faults', FaultsPanel],
  ['clock', 'Clock', ClockPanel],
  ['journal', 'Requests', JournalPanel],
  ['collections', 'Collections', CollectionsPanel],
] as const

type TabId = (typeof TABS)[number][0]

/** The host of the panels in a page: the page's `fetch` reaches the worker, events the journal. */
function createPageHost(options: DevtoolsOptions): ApiHost {
  return {
    apiUrl: options.baseUrl,
    chooseSession: false,
    watchJournal(session, onEntries, onLive) {
      const subscription = new AbortController()
      const pending: JournalEntry[] = []
      let timer: ReturnType<typeof setTimeout> | undefined
      const flush = () => {
        timer = undefined
        onEntries(pending.splice(0))
      }
      options.sandbox.events.on(
        'request:end',
        ({ data: { entry } }) => {
          if (entry.session !== session) return
          pending.push(entry)
          timer ??= setTimeout(flush, FLUSH_MS)
        },
        { signal: subscription.signal },
      )
      onLive(true)
      return () => {
        subscription.abort()
        if (timer) clearTimeout(timer)
      }
    },
    onSignIn(persona, accessToken) {
      const detail = { persona: persona.key, accessToken }
      window.dispatchEvent(new CustomEvent(SANDBOX_SIGN_IN_EVENT, { detail }))
    },
  }
}

interface Controls {
  setOpen?: (open: boolean) => void
  refresh?: () => void
}

function Devtools(props: { options: DevtoolsOptions; controls: Controls }) {
  const { options, controls } = props
  const [open, setOpen] = useState(options.open ?? false)
  const [tab, setTab] = useState<TabId>('session')
  const [generation, setGeneration] = useState(0)
  const foldButton = useRef<HTMLButtonElement>(null)
  const closeButton = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(open)
  const api = useMemo(
    () => createApi(options.session ?? 'default', createPageHost(options)),
    [options],
  )
  controls.setOpen = setOpen
  controls.refresh = () => setGeneration((g) => g + 1)

  // Focus follows the fold: into the drawer when it opens, back to the button when it closes.
  useEffect(() => {
    if (open !== wasOpen.current) (open ? closeButton : foldButton).current?.focus()
    wasOpen.current = open
  }, [open])
  // Open, the drawer sits beside the page rather than over it, when the window is wide
  // enough for both: the page gets a right padding as wide as the drawer until it closes.
  useEffect(() => {
    if (!open || window.innerWidth < DRAWER_WIDTH * 2) return
    const page = document.documentElement.style
    const previous = page.paddingRight
    page.paddingRight = `${DRAWER_WIDTH}px`
    return () => {
      page.paddingRight = previous
    }
  }, [open])

  if (!open) {
    return html`<button type="button" class="fold" ref=${foldButton} aria-expanded="false"
      aria-label="Open the sandbox devtools" onClick=${() => setOpen(true)}>
      <span class="dot" aria-hidden="true"></span>Sandbox
    </button>`
  }

  const select = (next: TabId) => {
    setTab(next)
    // Arrow keys move between the tabs, as in any tab list.
    const shadow = closeButton.current?.getRootNode() as ShadowRoot | undefined
    shadow?.getElementById(`sandbox-tab-${next}`)?.focus()
  }
  const onTabKey = (event: KeyboardEvent) => {
    const index = TABS.findIndex(([id]) => id === tab)
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (step === 0) return
    event.preventDefault()
    select(TABS[(index + step + TABS.length) % TABS.length]![0])
  }
  const key = `${api.session}#${generation}`
  return html`<aside class="drawer" aria-label="Sandbox devtools"
    onKeyDown=${(event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }}>
    <header>
      <h1>Platform API sandbox</h1>
      <button type="button" ref=${closeButton} aria-expanded="true"
        aria-label="Close the sandbox devtools" onClick=${() => setOpen(false)}>Close</button>
    </header>
    <div role="tablist" aria-label="Sandbox panels" onKeyDown=${onTabKey}>
      ${TABS.map(
        ([id, label]) => html`<button type="button" role="tab" id=${`sandbox-tab-${id}`}
          aria-selected=${tab === id} aria-controls=${`sandbox-tabpanel-${id}`}
          tabindex=${tab === id ? 0 : -1} onClick=${() => setTab(id)}>${label}</button>`,
      )}
    </div>
    <div class="tabpanels">
      ${TABS.map(
        ([id, , Panel]) => html`<div role="tabpanel" id=${`sandbox-tabpanel-${id}`}
          aria-labelledby=${`sandbox-tab-${id}`} hidden=${tab !== id}>
          <${Panel} key=${key} api=${api} onSession=${() => {}}
            onReset=${() => setGeneration((g) => g + 1)} />
        </div>`,
      )}
    </div>
  </aside>`
}

/**
 * Mounts the devtools in the page, folded unless `open`.
 *
 * @example
 * const devtools = mountDevtools({ sandbox, baseUrl: location.origin })
 * devtools.open()
 */
export function mountDevtools(options: DevtoolsOptions): SandboxDevtools {
  const element = document.createElement('platform-sandbox-devtools')
  const shadow = element.attachShadow({ mode: 'open' })
  const style = document.createElement('style')
  style.textContent = devtoolsStyles + panelStyles
  const root = document.createElement('div')
  shadow.append(style, root)
  ;(options.parent ?? document.body).append(element)
  const controls: Controls = {}
  render(html`<${Devtools} options=${options} controls=${controls} />`, root)
  return {
    element,
    open: () => controls.setOpen?.(true),
    close: () => controls.setOpen?.(false),
    refresh: () => controls.refresh?.(),
    unmount() {
      render(null, root)
      element.remove()
    },
  }
}
