/**
 * @module
 * Vitest wiring for the Node runtime: one sandbox per test file, reset after
 * every test, and an API client that calls it with `fetch`.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { SandboxCoreOptions } from '../../mocks/core/index.ts'
import { setupSandboxServer } from '../../mocks/runtimes/node/index.ts'
import { createApiClient } from './api-client.ts'

export const TEST_BASE_URL = 'http://api.sandbox.test'

export function useSandbox(options: SandboxCoreOptions = {}) {
  const { server, sandbox, reset } = setupSandboxServer(options)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => reset())
  afterAll(() => server.close())
  return { sandbox, server, api: createApiClient(TEST_BASE_URL) }
}
