/**
 * @module
 * Vitest wiring for the Node runtime: one sandbox per test file, reset after
 * every test, and the sandbox's one client (`mocks/sandbox-client/`) calling it with `fetch`.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import { personas } from '../../fixtures/personas.ts'
import type { SandboxCoreOptions } from '../../mocks/core/index.ts'
import { setupSandboxServer } from '../../mocks/runtimes/node/index.ts'
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'

export const TEST_BASE_URL = 'http://api.sandbox.test'

export function useSandbox(options: SandboxCoreOptions = {}) {
  const { server, sandbox, reset } = setupSandboxServer(options)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => reset())
  afterAll(() => server.close())
  return { sandbox, server, api: createSandboxClient<any>({ baseUrl: TEST_BASE_URL, personas }) }
}
