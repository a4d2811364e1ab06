/**
 * @module
 * The Storybook entry: one sandbox for the preview, a worker set-up for msw-storybook-addon 3,
 * and a loader that gives every story fresh state at the scenario it asks for and, if it
 * names a persona, a signed-in access token.
 */
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { Persona, PersonaKey } from '../../../fixtures/personas.ts'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox.ts'
import { signIn } from '../../sandbox-client/sandbox-client.ts'
import {
  type DevtoolsLoader,
  devtoolsLoader,
  HOW,
  loadDevtools,
  type SandboxDevtools,
} from '../browser/devtools-loader.ts'
import {
  createWorkerHandlers,
  startWorker,
  type WorkerHandlerOptions,
  withPageOrigin,
} from '../browser/worker-handlers.ts'

export type { DevtoolsLoader }

/** What a story puts in `parameters.sandbox`. */
export interface StorySandboxParameters {
  /** Scenario the story starts from. Default: the sandbox's starting scenario. */
  scenario?: string
  seed?: number
  /** Sign this persona in: the story gets its access token in `loaded.sandbox`. */
  persona?: PersonaKey
  /** Mount the sandbox devtools over the story (needs `createStorybookSandbox`'s `devtools`). */
  devtools?: boolean
}

/** What the loader gives the story, as `context.loaded.sandbox`. */
export interface StorySandbox {
  sandbox: Sandbox
  persona: Persona | null
  /** A valid access token of `persona`, or `null` without one. */
  accessToken: string | null
}

/** What the loader reads of Storybook's context (indexed: Storybook's type names no `sandbox`). */
export interface StoryLoaderContext {
  parameters: { sandbox?: StorySandboxParameters; [name: string]: unknown }
}

export interface StorybookSandboxOptions
  extends SandboxOptions,
    Pick<WorkerHandlerOptions, 'baseUrl'> {
  /** Where `mockServiceWorker.js` is served. Default `/mockServiceWorker.js`. */
  serviceWorkerUrl?: string
  /** The devtools' loader, `() => import('platform-sandbox/devtools')`, for stories that ask. */
  devtools?: DevtoolsLoader | undefined
}

export interface StorybookSandbox {
  sandbox: Sandbox
  /** The sandbox's handlers; `setupWorker` starts msw's worker with them. */
  handlers: ReturnType<typeof createWorkerHandlers>
  /**
   * The addon's set-up function, for `mswLoader()` of `msw-storybook-addon/csf3` or
   * `addonMsw()` (CSF Next): starts msw's worker on the sandbox handlers.
   */
  setupWorker(): Promise<SetupWorker>
  /** Add to the preview's `loaders`, after `mswLoader`. */
  loader(context: StoryLoaderContext): Promise<{ sandbox: StorySandbox }>
}

/**
 * Creates the preview's sandbox, handlers and loader.
 *
 * @example
 * // .storybook/preview.ts
 * import { mswLoader } from 'msw-storybook-addon/csf3'
 * const { setupWorker, loader } = createStorybookSandbox()
 * export default { loaders: [mswLoader(setupWorker), loader] }
 */
export function createStorybookSandbox(options: StorybookSandboxOptions = {}): StorybookSandbox {
  const {
    baseUrl,
    serviceWorkerUrl = '/mockServiceWorker.js',
    devtools: devtoolsOption,
    ...sandboxOptions
  } = options
  const loader = devtoolsLoader(devtoolsOption, 'createStorybookSandbox')
  let warnedNoLoader = false
  const sandbox = createSandbox(withPageOrigin(sandboxOptions))
  const handlers = createWorkerHandlers(sandbox, baseUrl === undefined ? {} : { baseUrl })
  let devtools: Promise<SandboxDevtools> | undefined
  /** Mounts, refreshes or removes the devtools, as the story asks. */
  const showDevtools = async (wanted: boolean) => {
    if (wanted && loader) {
      devtools ??= loadDevtools(loader, { sandbox, baseUrl })
      ;(await devtools).refresh()
    } else if (wanted && !warnedNoLoader) {
      warnedNoLoader = true
      console.warn(
        `[sandbox] A story asks for the devtools: give createStorybookSandbox({ ${HOW} }) in the preview.`,
      )
    } else if (!wanted && devtools) {
      const mounted = devtools
      devtools = undefined
      ;(await mounted).unmount()
    }
  }
  return {
    sandbox,
    handlers,
    async setupWorker() {
      const worker = setupWorker(...handlers)
      await startWorker(worker, { url: serviceWorkerUrl, onUnhandled: 'bypass', quiet: true })
      return worker
    },
    async loader({ parameters }) {
      const wanted = parameters.sandbox ?? {}
      await sandbox.resetAll({
        ...(wanted.scenario === undefined ? {} : { scenario: wanted.scenario }),
        ...(wanted.seed === undefined ? {} : { seed: wanted.seed }),
      })
      const persona = sandbox.personas.find((candidate) => candidate.key === wanted.persona) ?? null
      const accessToken = persona && (await signIn(sandbox, persona))
      // Signing in journals a request; the story starts with an empty journal.
      if (persona) sandbox.journal.clear()
      await showDevtools(wanted.devtools === true)
      return { sandbox: { sandbox, persona, accessToken } }
    },
  }
}
