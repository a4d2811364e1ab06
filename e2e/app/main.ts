/**
 * @module
 * The example front end. It signs in through the identity-provider callback,
 * refreshes its token with the HttpOnly cookie, shows the account status, and
 * follows a user, declines a booking and archives a notification. In the browser
 * the sandbox worker answers every API call; `?worker=off` leaves that to
 * whatever else intercepts (the Playwright fixture). `?devtools` mounts the sandbox's
 * in-page panel, and a sign-in made there is taken up here. `?conformance` also loads the
 * conformance suite (a separate chunk) and exposes it as `window.__conformance`, for
 * `e2e/conformance.spec.ts`.
 */
import type { CaseOutcome } from '../../contract/conformance/index.ts'
import { SANDBOX_SIGN_IN_EVENT, startSandboxWorker } from '../../mocks/runtimes/browser/index.ts'
import { createAccountPanel } from './account-panel.ts'
import { ApiError, createApi, type PersonaSummary, subjectOf } from './api.ts'
import { createBookingsPanel } from './bookings-panel.ts'
import { h, mount } from './dom.ts'
import { brokenReplay, stagingReplay } from './recordings.ts'
import { exampleScenarios } from './scenarios.ts'

/** What `window.__conformance` offers once the suite is loaded. */
interface ConformanceInPage {
  /** Every case name, in the order `run()` plays them. */
  names: string[]
  /** Plays every case, one after the other, through `window.__sandbox.fetch`. */
  run(): Promise<CaseOutcome[]>
}

declare global {
  interface Window {
    /** Set when the page is opened with `?conformance`, once the worker has started. */
    __conformance?: ConformanceInPage
  }
}

const api = createApi()
const params = new URLSearchParams(location.search)
const root = document.getElementById('app')!
const message = h('p', { class: 'message', role: 'status', 'data-testid': 'message' })

let personas: PersonaSummary[] = []
let accessToken: string | null = null

function say(text: string, isError = false): void {
  message.textContent = text
  message.className = isError ? 'message error' : 'message'
}

function failure(error: unknown): string {
  if (!(error instanceof ApiError)) return String(error)
  // What a gateway answers when the backend is down or overloaded: say when to try again.
  const retry = error.retryAfter === undefined ? '' : `. Try again in ${error.retryAfter} s.`
  const unavailable = error.status === 429 || error.status >= 502 ? 'Service unavailable: ' : ''
  return `${unavailable}${error.status} ${error.code ?? ''}: ${error.message}${retry}`
}

async function signIn(code: string): Promise<void> {
  try {
    await api.completeSignIn(code)
    accessToken = await api.refresh()
    say('Signed in')
  } catch (error) {
    say(`Sign-in failed: ${failure(error)}`, true)
  }
  render()
}

async function follow(input: HTMLInputElement): Promise<void> {
  if (!accessToken) return
  try {
    await api.follow(accessToken, input.value.trim())
    say(`Now following ${input.value.trim()}`)
  } catch (error) {
    say(`Follow failed: ${failure(error)}`, true)
  }
}

function signInForm(): HTMLElement {
  const select = h(
    'select',
    { 'data-testid': 'persona' },
    ...personas.map((persona) =>
      h('option', { value: persona.idpCode }, `${persona.displayName} (${persona.key})`),
    ),
  ) as HTMLSelectElement
  return h(
    'form',
    {
      class: 'panel row',
      'data-testid': 'sign-in',
      onsubmit: (event) => {
        event.preventDefault()
        void signIn(select.value)
      },
    },
    h('label', {}, 'Persona ', select),
    h('button', { type: 'submit' }, 'Sign in'),
  )
}

function followForm(): HTMLElement {
  const input = h('input', {
    value: 'usr_guest',
    'aria-label': 'Public id to follow',
    'data-testid': 'follow-target',
  }) as HTMLInputElement
  return h(
    'form',
    {
      class: 'panel row',
      onsubmit: (event) => {
        event.preventDefault()
        void follow(input)
      },
    },
    h('label', {}, 'Follow user ', input),
    h('button', { type: 'submit', 'data-testid': 'follow' }, 'Follow'),
  )
}

function render(): void {
  const sandbox = window.__sandbox
  const header = h(
    'header',
    { class: 'row' },
    h('h1', {}, 'Platform sandbox example'),
    sandbox &&
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'reset',
          onclick: async () => {
            await sandbox.reset()
            say('Sandbox reset')
            render()
          },
        },
        'Reset sandbox',
      ),
  )
  if (!accessToken) {
    mount(root, header, signInForm(), message)
    return
  }
  const me = subjectOf(accessToken)
  const name = personas.find((persona) => persona.publicId === me)?.displayName ?? me
  const account = createAccountPanel({
    api,
    accessToken,
    onChange: () => say('Notification archived'),
  })
  const bookings = createBookingsPanel({
    api,
    accessToken,
    onDeclined: (id) => say(`Booking ${id} declined`),
    onError: (id, error) => say(`Declining ${id} failed: ${failure(error)}`, true),
  })
  mount(
    root,
    header,
    h('p', { 'data-testid': 'signed-in' }, `Signed in as ${name} (${me})`),
    message,
    account.element,
    followForm(),
    bookings.element,
  )
}

/**
 * Loads the conformance list and its runner (a chunk of their own, never fetched by the
 * normal page) and sets `window.__conformance`. The cases hold zod schemas, so they run
 * here, in the page, against the worker. Call it after `startSandboxWorker`.
 */
async function exposeConformance(): Promise<void> {
  const sandbox = window.__sandbox
  if (!sandbox) throw new Error('Failed to load the conformance suite: the worker is not started')
  const { conformanceCases, createConformanceRunner } = await import(
    '../../contract/conformance/index.ts'
  )
  window.__conformance = {
    names: conformanceCases.map((testCase) => testCase.name),
    async run() {
      const runner = createConformanceRunner({
        baseUrl: location.origin,
        fetch: sandbox.fetch,
        // A browser never shows `Set-Cookie` to a script.
        hiddenHeaders: ['set-cookie'],
      })
      const outcomes: CaseOutcome[] = []
      for (const testCase of conformanceCases) outcomes.push(await runner.run(testCase))
      return outcomes
    },
  }
}

/**
 * `?replay=staging` (or `broken`): recorded answers first, checked against the merged
 * contract; the check (ajv and the document) loads only then, as its own chunk.
 */
function replayOptions(name: string | null) {
  const replay = name === 'staging' ? stagingReplay : name === 'broken' ? brokenReplay : undefined
  if (!replay) return {}
  const replayCheck = async () =>
    (await import('../../mocks/contract-check.ts')).loadContractCheck()
  return { replay, replayCheck }
}

async function start(): Promise<void> {
  if (params.get('worker') !== 'off') {
    await startSandboxWorker({
      scenario: params.get('scenario') ?? 'default',
      scenarios: exampleScenarios,
      ...replayOptions(params.get('replay')),
      quiet: true,
      // `?devtools`: the sandbox's panel in the page (its own chunk, loaded only then).
      devtools: params.has('devtools')
        ? () => import('../../mocks/runtimes/devtools/index.ts')
        : undefined,
    })
    if (params.has('conformance')) await exposeConformance()
  }
  personas = await api.personas()
  try {
    // A reload keeps the HttpOnly refresh cookie: sign in again silently.
    accessToken = await api.refresh()
  } catch {
    accessToken = null
  }
  render()
  // A persona signed in from the devtools: take the session up through the app's own
  // cookie-only refresh, as after a reload.
  window.addEventListener(SANDBOX_SIGN_IN_EVENT, async () => {
    accessToken = await api.refresh()
    say('Signed in')
    render()
  })
  document.body.dataset.ready = 'true'
}

void start()
