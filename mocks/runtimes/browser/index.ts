/**
 * @module
 * The browser entry: the sandbox answering a page's requests from msw's Service Worker, for
 * app development mode and browser tests. The state lives in the page; with `persist` (the
 * default) it is kept in `sessionStorage`, so a reload finds it again, until `reset()`.
 */
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { RecordingCheck } from '../../../recordings/replay/replay.ts'
import { builtInSandbox } from '../../built-in-sandbox.ts'
import type { SandboxRequest } from '../../core/index.ts'
import type { ResetOptions, ResetResult, Sandbox, SandboxOptions } from '../../sandbox.ts'
import {
  type DevtoolsLoader,
  devtoolsLoader,
  loadDevtools,
  type SandboxDevtools,
  whenIdle,
} from './devtools-loader.ts'
import { isUnderPlaywrightFixture } from './fixture-marker.ts'
import { captureState, restoreSaved, writePersistedState } from './persisted-state.ts'
import {
  COOKIE_HEADER_OVERRIDE,
  createWorkerHandlers,
  type SentResponse,
  sendThroughWorker,
  startWorker,
  type WorkerHandlerOptions,
  withPageOrigin,
  workerFetch,
} from './worker-handlers.ts'

export const DEFAULT_STORAGE_KEY = 'platform-sandbox:state'

const loadRecordedTraffic = () => import('./recorded-traffic.ts')

export interface SandboxWorkerOptions extends SandboxOptions {
  /** Origin (and optional path prefix) of the API, e.g. `http://localhost:4010`. Default `*`. */
  baseUrl?: string
  /** Where `mockServiceWorker.js` is served. Default `/mockServiceWorker.js`. */
  serviceWorkerUrl?: string
  /** Keep the state in `sessionStorage` (under this key, if a string). Default `true`. */
  persist?: boolean | string
  /** What msw does with requests no handler answers (msw 3: `onUnhandledFrame`). Default `bypass`. */
  onUnhandledRequest?: 'bypass' | 'warn' | 'error'
  /** Keep msw from logging each mocked request to the console. Default `false`. */
  quiet?: boolean
  /** Put the returned controls on `window.__sandbox`. Default `true`. */
  expose?: boolean
  /**
   * Checks `replay`'s answers against the merged contract in the background, printing those
   * that break it: `loadContractCheck` of `platform-sandbox/contract-check` (about 50 kB gzipped).
   */
  replayCheck?: () => Promise<RecordingCheck>
  /**
   * The loader of the sandbox devtools, mounted behind a "Sandbox" button in a corner (never
   * under the Playwright fixture): its own chunk, about 13 kB gzipped.
   *
   * @example
   * devtools: import.meta.env.DEV ? () => import('platform-sandbox/devtools') : undefined
   */
  devtools?: DevtoolsLoader | false | undefined
}

export interface SandboxWorker {
  worker: SetupWorker
  /** This page's Service Worker answers, or the `platform-sandbox/playwright` fixture. */
  answeredBy: 'worker' | 'playwright'
  sandbox: Sandbox
  /** Back to the original handlers and the starting scenario and seed, or those given. */
  reset(options?: Omit<ResetOptions, 'session'>): Promise<ResetResult>
  /** Stops answering requests. The saved state stays until `reset()`. */
  stop(): void
  /** Sends a plain request through the worker, with {@link workerFetch}'s cookies. */
  send(request: SandboxRequest): Promise<SentResponse>
  /** {@link workerFetch}, for runners that take a `fetch`. */
  fetch: typeof fetch
  /** The answers of `replay` that break the merged contract, once `replayCheck` is done. */
  replayProblems: Promise<string[]>
  /** The mounted devtools, once loaded; `undefined` without the `devtools` loader. */
  devtools: Promise<SandboxDevtools> | undefined
}

declare global {
  interface Window {
    /** Set by `startSandboxWorker` unless `expose: false`. */
    __sandbox?: SandboxWorker
  }
}

/**
 * Creates a sandbox in the page and starts msw's worker on its handlers; await it before the
 * app's first request. Under the `platform-sandbox/playwright` fixture it registers no worker
 * (`answeredBy: 'playwright'`): the same app code runs in dev mode and in tests.
 *
 * @example
 * if (import.meta.env.DEV) {
 *   const { startSandboxWorker } = await import('platform-sandbox/browser')
 *   await startSandboxWorker({ scenario: 'default' })
 * }
 */
export async function startSandboxWorker(
  options: SandboxWorkerOptions = {},
): Promise<SandboxWorker> {
  const {
    baseUrl,
    serviceWorkerUrl = '/mockServiceWorker.js',
    persist = true,
    onUnhandledRequest = 'bypass',
    quiet = false,
    expose = true,
    replayCheck,
    devtools,
    replay: recorded,
    ...sandboxOptions
  } = options
  const loader = devtoolsLoader(devtools, 'startSandboxWorker')
  const storage = persist === false ? undefined : sessionStorage
  const storageKey = typeof persist === 'string' ? persist : DEFAULT_STORAGE_KEY
  // Created with the options' scenario and seed, so that a bare reset returns to them
  // after a reload too; the saved state is then laid over its own scenario and seed.
  // The replay's code and the HAR writer's are loaded only when asked for: neither is in this entry.
  const replay = recorded && (await loadRecordedTraffic()).replayOf(recorded)
  const loadJournalHar = () => loadRecordedTraffic().then((loaded) => loaded.writeJournalHar)
  const sandbox = builtInSandbox(withPageOrigin({ ...sandboxOptions, loadJournalHar }), replay)
  if (storage) await restoreSaved(sandbox, storage, storageKey)

  const save = async () => {
    if (storage) writePersistedState(storage, storageKey, captureState(await sandbox.store()))
  }
  const handlers = createWorkerHandlers(sandbox, {
    ...(baseUrl === undefined ? {} : { baseUrl }),
    // Reads and refusals change nothing, so there is nothing new to save.
    onAnswer: (request, answer) =>
      request.method === 'GET' || answer.status >= 400 ? undefined : save(),
  })
  const worker = setupWorker(...handlers)
  const answeredBy = isUnderPlaywrightFixture() ? 'playwright' : 'worker'
  if (answeredBy === 'worker') {
    await startWorker(worker, { url: serviceWorkerUrl, onUnhandled: onUnhandledRequest, quiet })
  }

  const controls: SandboxWorker = {
    worker,
    answeredBy,
    sandbox,
    replayProblems:
      replay && replayCheck && answeredBy === 'worker'
        ? import('../../../recordings/replay/replay.ts').then((warning) =>
            warning.checkReplayAndWarn(replay, replayCheck),
          )
        : Promise.resolve([]),
    async reset(resetOptions = {}) {
      worker.resetHandlers()
      const result = await sandbox.reset(resetOptions)
      await save()
      return result
    },
    stop() {
      if (answeredBy === 'worker') worker.stop()
      void controls.devtools?.then((mounted) => mounted.unmount())
      if (expose && window.__sandbox === controls) delete window.__sandbox
    },
    send: (request) => sendThroughWorker(request, baseUrl),
    fetch: workerFetch,
    // The fixture's tests see the app as users do: no panel over it. Mounted once the page
    // is idle, so that the app's first requests and render come first.
    devtools:
      loader && answeredBy === 'worker'
        ? whenIdle().then(() => loadDevtools(loader, { sandbox, baseUrl }))
        : undefined,
  }
  controls.devtools?.catch((error) => console.warn('[sandbox] Failed to load the devtools:', error))
  if (expose) window.__sandbox = controls
  return controls
}

export { anchors } from '../../../fixtures/anchors.ts'
export { type Persona, type PersonaKey, personas } from '../../../fixtures/personas.ts'
export type { RecordingCheck, ReplayOptions } from '../../../recordings/replay/replay.ts'
export { createSandbox } from '../../sandbox.ts'
export { ScenarioError } from '../../scenarios/compile-scenarios.ts'
export type { ScenarioFile } from '../../scenarios/scenario-file.ts'
export { defineScenario } from '../../scenarios/scenario-file.ts'
export {
  type DevtoolsLoader,
  type DevtoolsModule,
  SANDBOX_SIGN_IN_EVENT,
  type SandboxDevtools,
  type SandboxSignInDetail,
} from './devtools-loader.ts'
export type {
  ResetOptions,
  ResetResult,
  Sandbox,
  SandboxOptions,
  SentResponse,
  WorkerHandlerOptions,
}
export { COOKIE_HEADER_OVERRIDE, createWorkerHandlers, sendThroughWorker, workerFetch }
