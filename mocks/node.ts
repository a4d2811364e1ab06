/**
 * @module
 * The Node entry for test authors: the sandbox handlers on msw's `setupServer`.
 */
import { setupServer } from 'msw/node'
import {
  createSandbox,
  type ResetOptions,
  type Sandbox,
  type SandboxOptions,
} from './core/sandbox.ts'
import { createHandlers, type HandlerOptions } from './handlers/create-handlers.ts'

export interface SandboxServer {
  sandbox: Sandbox
  server: ReturnType<typeof setupServer>
  /**
   * The one line between tests: drops every extra session, puts the default session
   * back to the starting scenario (or the one given) and restores the original handlers.
   */
  reset(options?: ResetOptions): Promise<void>
}

/**
 * Creates a sandbox and an msw server that answers with it.
 *
 * @example
 * const { server, reset } = setupSandboxServer()
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
 * afterEach(() => reset())
 * afterAll(() => server.close())
 */
export function setupSandboxServer(options: SandboxOptions & HandlerOptions = {}): SandboxServer {
  const sandbox = createSandbox(options)
  const server = setupServer(...createHandlers(sandbox, options))
  return {
    sandbox,
    server,
    async reset(resetOptions) {
      server.resetHandlers()
      const { session, ...scenario } = resetOptions ?? {}
      if (session === undefined) await sandbox.resetAll(scenario)
      else {
        await sandbox.reset({
          scenario: sandbox.settings.scenario,
          seed: sandbox.settings.seed,
          ...resetOptions,
        })
      }
    },
  }
}

export type { ScenarioSource } from './scenarios/compile-scenarios.ts'
export { ScenarioError } from './scenarios/compile-scenarios.ts'
export { readScenarioFiles } from './scenarios/load-files.ts'
export type { ScenarioFile } from './scenarios/scenario-file.ts'
export { defineScenario } from './scenarios/scenario-file.ts'
export type { HandlerOptions, ResetOptions, Sandbox, SandboxOptions }
export { createHandlers, createSandbox }
