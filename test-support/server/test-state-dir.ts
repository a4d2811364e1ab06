/**
 * @module
 * Test helpers for `--state-dir`: temporary state folders and servers started on them,
 * removed and stopped after each test of the file that uses them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { collectionNames } from '../../mocks/model/schemas.ts'
import type { ServerOptions } from '../../server/options.ts'
import { startTestCli } from './test-cli.ts'
import { startTestServer, type TestServer } from './test-server.ts'

/** Call at the top of a test file: its tests then get folders and servers cleaned up after them. */
export function useStateDirServers(prefix: string) {
  const directories: string[] = []
  const servers: TestServer[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
    for (const directory of directories.splice(0)) {
      rmSync(directory, { recursive: true, force: true })
    }
  })
  return {
    temporaryDirectory(): string {
      const directory = mkdtempSync(join(tmpdir(), prefix))
      directories.push(directory)
      return directory
    },
    async start(stateDir: string, options: ServerOptions = {}): Promise<TestServer> {
      const server = await startTestServer({ stateDir, ...options })
      servers.push(server)
      return server
    },
  }
}

/** The `platform-sandbox` command on `directory`, as a process (the test stops it). */
export const startStateDirCli = (directory: string) => startTestCli(['--state-dir', directory])

/** Every collection of `session`, by name, as the control API gives them. */
export async function everything(server: TestServer, session: string) {
  const state: Record<string, unknown> = {}
  for (const name of collectionNames) state[name] = await server.collection(name, session)
  return state
}
