/**
 * @module
 * The browser entry: the sandbox answering a page's requests from msw's Service Worker, for
 * app development mode and browser tests. The state lives in the page; with `persist` (the
 * default) it is kept in `sessionStorage`, so a reload finds it again, until `reset()`.
 */
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { RecordingCheck } from '../../../recordings/replay/replay.ts'
import { createBuiltInSandbox, loadReplay } from '../../built-in-sandbox.ts'
import type { SandboxRequest } from '../../core/http.ts'
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

export interface SandboxWorkerOptions extends SandboxOptions {
  /**
   * Origin (and optional path prefix) the API lives at, e.g. `http://localhost:4010`.
   * Default `*`: any origin.
   */
  baseUrl?: string
  /** Where `mockServiceWorker.js` is served. Default `/mockServiceWorker.js`. */
  serviceWorkerUrl?: string
  /**
   * Keep the state in `sessionStorage` so that it survives a reload. `true` (default)
   * uses the key `platform-sandbox:state`; a string names another key.
   */
  persist?: boolean | string
  /** What msw does with requests no handler answers (msw 3: `onUnhandledFrame`). Default `bypass`. */
  onUnhandledRequest?: 'bypass' | 'warn' | 'error'
  /** Keep msw from logging each mocked request to the console. Default `false`. */
  quiet?: boolean
  /** Put the returned controls on `window.__sandbox`. Default `true`. */
  expose?: boolean
  /**
   * Checks the recorded answers of `replay` against the merged contract in the background:
   * `loadContractCheck` of `platform-sandbox/contract-check` (about 50 kB gzipped, so not
   * built in). Answers that break it are printed and given by `replayProblems`.
   */
  replayCheck?: () => Promise<RecordingCheck>
  /**
   * Mounts the sandbox devtools (session, personas, fault rules, clock, live journal,
   * collections) behind a "Sandbox" button in a corner. Give their loader,
   * `() => import('platform-sandbox/devtools')`: its own chunk (about 13 kB gzipped), fetched
   * only here; a build without it holds none of it. Never mounted under the Playwright fixture.
   *
   * @example
   * devtools: import.meta.env.DEV ? () => import('platform-sandbox/devtools') : undefined
   */
  devtools?: DevtoolsLoader | false | undefined
}

export interface SandboxWorker {
  worker: SetupWorker
  /**
   * `'worker'`: this page's Service Worker answers with `sandbox`. `'playwright'`: the
   * `platform-sandbox/playwright` fixture answers from the test's own `sandbox` fixture.
   */
  answeredBy: 'worker' | 'playwright'
  sandbox: Sandbox
  /**
   * Back to the starting scenario and seed (the ones the worker was started with, even after
   * a reload), or the scenario, seed or snapshot given; and the original handlers.
   */
  reset(options?: Omit<ResetOptions, 'session'>): Promise<ResetResult>
  /** Stops answering requests. The saved state stays until `reset()`. */
  stop(): void
  /**
   * Sends a plain request through `fetch` and the worker, as a test would describe it.
   * A `cookie` header travels as `x-sandbox-cookie`, and no browser cookie is added.
   */
  send(request: SandboxRequest): Promise<SentResponse>
  /** {@link workerFetch}, for runners that take a `fetch`. */
  fetch: typeof fetch
  /**
   * The recorded answers of `replay` that break the merged contract, one line each,
   * once `replayCheck` has checked them all; `[]` without `replayCheck` or `replay`.
   */
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
  const replay = await loadReplay(recorded)
  const sandbox = createBuiltInSandbox(withPageOrigin({ ...sandboxOptions, replay }))
  if (storage) await restoreSaved(sandbox, storage, storageKey)

  const save = async () => {
    if (storage) writePersistedState(storage, storageKey, captureState(await sandbox.store()))
  }
  const handlerOptions: WorkerHandlerOptions = {
    // Reads and refusals change nothing, so there is nothing new to save.
    onAnswer: (request, answer) =>
      request.method === 'GET' || answer.status >= 400 ? undefined : save(),
  }
  if (baseUrl !== undefined) handlerOptions.baseUrl = baseUrl
  const worker = setupWorker(...createWorkerHandlers(sandbox, handlerOptions))
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
