/**
 * @module
 * The Playwright entry: a `test` whose every test gets its own sandbox, answering the page's
 * API requests through `context.route()` (no Service Worker, no server), or with
 * `sandboxServer` its own session on a running standalone sandbox, with nothing routed.
 */

import {
  test as base,
  type Fixtures,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
} from '@playwright/test'
import type { AnyHandler } from 'msw'
import { checkReplayAndWarn, type ReplayOptions } from '../../../recordings/replay/replay.ts'
import { loadContractCheck } from '../../contract-check.ts'
import { quickChecksWith } from '../../core/index.ts'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox.ts'
import { type ScenarioInputs, toScenarioList } from '../../scenarios/scenario-inputs.ts'
import { FIXTURE_MARKER } from '../browser/fixture-marker.ts'
import { enableSandboxNetwork, type SandboxNetwork } from './network.ts'
import { createPageHandlers, type PageHandlerOptions } from './page-handlers.ts'
import { createServerSandbox } from './server-sandbox.ts'

// Answers of operations of your own are checked with ajv here (loaded only when some come).
quickChecksWith(() => import('../../adapters/quick-check.ts'))

export interface SandboxTestOptions {
  /** Scenario the test's sandbox starts from. Default `default`. */
  sandboxScenario: string
  /** Scenario files (objects, or `readScenarioFiles` of `platform-sandbox/node`) it knows. */
  sandboxScenarios: ScenarioInputs
  /** Seed of the generated data. Default: the sandbox's (`20260601`). */
  sandboxSeed: number | undefined
  /** Any other sandbox option (secret, clock, strict contract...). */
  sandboxOptions: SandboxOptions
  /** Recorded answers (a HAR document or an examples file) layered before the operations. */
  sandboxReplay: ReplayOptions | undefined
  /** Where the API lives, e.g. `http://localhost:4010`. Default `*`: any origin. */
  sandboxBaseUrl: string
  /** What happens to requests no handler answers. Default `bypass`. */
  onUnhandledRequest: 'bypass' | 'warn' | 'error'
  /**
   * A running standalone sandbox, e.g. `http://localhost:4010`. Then nothing is routed: each
   * test gets a fresh session there, whose `sandbox_session` cookie is set for the hosts of
   * `baseURL` and of the server; `sandbox.store()`, `reset()`, `resetAll()` and `journal` act
   * on it, and server-side code reaches it through `sandboxHeaders()` of `platform-sandbox/next`.
   */
  sandboxServer: string | undefined
  /** The `--control-token` of `sandboxServer`, when it was started with one. */
  sandboxControlToken: string | undefined
}

export interface SandboxTestFixtures {
  /** This test's own sandbox: `sandbox.store()`, `sandbox.journal.list()`, `sandbox.reset()`. */
  sandbox: Sandbox
  /** The sandbox handlers the network starts with. */
  handlers: AnyHandler[]
  /** The page's network: `network.use(http.get(...))` overrides a handler for this test. */
  network: SandboxNetwork
  /** The recorded answers of `sandboxReplay` that break the merged contract, one line each. */
  sandboxReplayProblems: string[]
}

/** The check of each recording, run once per worker in the background of its first test. */
const replayChecks = new WeakMap<object, Promise<string[]>>()

/**
 * The fixtures, for a `test` of your own: `base.extend(sandboxFixtures)`. They block Service
 * Workers (whose requests never reach `context.route()`) and mark every page, so that the
 * app's `startSandboxWorker()` resolves without registering one: the app runs unchanged.
 */
export const sandboxFixtures: Fixtures<
  SandboxTestOptions & SandboxTestFixtures,
  object,
  PlaywrightTestArgs & PlaywrightTestOptions
> = {
  sandboxScenario: ['default', { option: true }],
  sandboxScenarios: [[], { option: true }],
  sandboxSeed: [undefined, { option: true }],
  sandboxOptions: [{}, { option: true }],
  sandboxReplay: [undefined, { option: true }],
  sandboxBaseUrl: ['*', { option: true }],
  onUnhandledRequest: ['bypass', { option: true }],
  sandboxServer: [undefined, { option: true }],
  sandboxControlToken: [undefined, { option: true }],
  serviceWorkers: 'block',
  sandbox: async (
    {
      sandboxScenario: scenario,
      sandboxScenarios,
      sandboxSeed: seed,
      sandboxOptions,
      sandboxReplay,
      sandboxServer: server,
      sandboxControlToken: controlToken,
      baseURL,
      context,
    },
    use,
    testInfo,
  ) => {
    if (server !== undefined) {
      const unused = Object.entries({ sandboxScenarios, sandboxOptions, sandboxReplay })
        .filter(([, value]) => value !== undefined && Object.keys(value).length > 0)
        .map(([name]) => name)
      if (unused.length > 0) {
        throw new Error(
          `Failed to start the test's session: ${unused.join(', ')} cannot be combined with sandboxServer; give the server its flags (--scenario-file, --replay...) instead`,
        )
      }
      const label = `w${testInfo.workerIndex}`
      const start = { server, controlToken, scenario, seed, baseURL, context, label }
      return use(await createServerSandbox(start))
    }
    const options: SandboxOptions = { ...sandboxOptions, scenario }
    const scenarios = [
      ...toScenarioList(sandboxScenarios),
      ...toScenarioList(sandboxOptions.scenarios ?? []),
    ]
    if (scenarios.length > 0) options.scenarios = scenarios
    if (seed !== undefined) options.seed = seed
    if (sandboxReplay !== undefined) options.replay = sandboxReplay
    const sandbox = createSandbox(options)
    const recordings = sandboxReplay?.recordings
    if (sandbox.replay && typeof recordings === 'object' && !replayChecks.has(recordings)) {
      replayChecks.set(recordings, checkReplayAndWarn(sandbox.replay, loadContractCheck))
    }
    await sandbox.ready
    await use(sandbox)
  },
  sandboxReplayProblems: async ({ sandbox, sandboxReplay }, use) => {
    const recordings = sandboxReplay?.recordings
    const check = sandbox.replay && typeof recordings === 'object' && replayChecks.get(recordings)
    await use(check ? await check : [])
  },
  handlers: async ({ sandbox, context, sandboxBaseUrl, sandboxServer }, use) => {
    const options: PageHandlerOptions = { context, baseUrl: sandboxBaseUrl }
    await use(sandboxServer === undefined ? createPageHandlers(sandbox, options) : [])
  },
  network: [
    async ({ context, handlers, onUnhandledRequest, sandboxServer }, use) => {
      // A page that calls `startSandboxWorker()` finds the marker and leaves the answering to us.
      await context.addInitScript((marker) => {
        ;(globalThis as Record<string, unknown>)[marker] = true
      }, FIXTURE_MARKER)
      if (sandboxServer !== undefined) return use(unroutedNetwork(sandboxServer))
      const { network, disable } = await enableSandboxNetwork(context, handlers, onUnhandledRequest)
      await use(network)
      await disable()
    },
    { auto: true },
  ],
}

/** `network` under `sandboxServer`: the server answers, so there is nothing to override. */
function unroutedNetwork(server: string): SandboxNetwork {
  const refuse = (): never => {
    throw new Error(
      `Failed to override a handler: with sandboxServer the fixture routes nothing and ${server} answers; use its fault rules (/__sandbox/faults) or Prefer headers instead`,
    )
  }
  return { use: refuse, resetHandlers: refuse, listHandlers: () => [] }
}

/**
 * Playwright's `test` with a fresh sandbox per test.
 *
 * @example
 * import { expect, test } from 'platform-sandbox/playwright'
 *
 * test.use({ sandboxScenario: 'empty' })
 *
 * test('shows the account status', async ({ page, sandbox }) => {
 *   await page.goto('/')
 *   expect(sandbox.journal.list().map((entry) => entry.operationId)).toContain('getAccountStatus')
 * })
 */
export const test = base.extend<SandboxTestOptions & SandboxTestFixtures>(sandboxFixtures)

export { expect } from '@playwright/test'
export { parseSetCookie } from './set-cookie.ts'
/** The `network` fixture's type (the name `@msw/playwright` used). */
export type NetworkFixture = SandboxNetwork
export type { ReplayOptions, Sandbox, SandboxNetwork, SandboxOptions }
export { createPageHandlers, type PageHandlerOptions }
