/**
 * @module
 * The in-page devtools as the browser and Storybook runtimes take them: a loader the app gives,
 * called only when the panel is wanted, so a build without it holds none of the panels' code.
 */
import type { SandboxEvents } from '../../core/index.ts'
import type { DevtoolsOptions, SandboxDevtools } from '../devtools/index.ts'
import { pageBaseUrl } from './worker-handlers.ts'

export {
  SANDBOX_SIGN_IN_EVENT,
  type SandboxSignInDetail,
} from '../devtools/api.ts'
export type { SandboxDevtools }

/** What `platform-sandbox/devtools` exports, as far as a runtime uses it. */
export interface DevtoolsModule {
  mountDevtools(options: DevtoolsOptions): SandboxDevtools
}

/** Loads the devtools' module: `() => import('platform-sandbox/devtools')`. */
export type DevtoolsLoader = () => Promise<DevtoolsModule>

/** How an app passes the loader, for the messages that ask for it. */
export const HOW = "devtools: () => import('platform-sandbox/devtools')"

/** The loader an option holds, or `undefined`; `true`, the form before the loader, warns. */
export function devtoolsLoader(value: unknown, where: string): DevtoolsLoader | undefined {
  if (value === undefined || value === false || value === null) return undefined
  if (typeof value === 'function') return value as DevtoolsLoader
  if (value === true) {
    console.warn(
      `[sandbox] ${where}: \`devtools: true\` no longer mounts the panel. Pass its loader, ${HOW}, so that a build without it holds none of the panel's code.`,
    )
    return undefined
  }
  throw new TypeError(`${where}: devtools must be a function such as ${HOW}; got ${typeof value}`)
}

/** Resolves when the page has a moment, within a second at most. */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: 1000 })
    else setTimeout(resolve, 50)
  })
}

/** Loads the panels with `loader` and mounts them, folded, for the sandbox at `baseUrl`. */
export async function loadDevtools(
  loader: DevtoolsLoader,
  options: { sandbox: { events: SandboxEvents }; baseUrl?: string | undefined },
): Promise<SandboxDevtools> {
  const loaded = await loader()
  if (typeof loaded?.mountDevtools !== 'function') {
    throw new TypeError(`The devtools loader gave no mountDevtools; write ${HOW}`)
  }
  return loaded.mountDevtools({ sandbox: options.sandbox, baseUrl: pageBaseUrl(options.baseUrl) })
}
