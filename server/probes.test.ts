/**
 * The probes: `GET /__sandbox/health` (liveness) and `/__sandbox/ready` (readiness) answer
 * without the control token, closed control API or not; readiness fails (503, `Retry-After`)
 * while the store says it cannot take writes, and liveness does not.
 */
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStore, SandboxError } from '../mocks/core/index.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { openStateDir } from './state-dir.ts'
import { nodeLogFiles } from './state-log.ts'

let servers: TestServer[] = []
afterEach(async () => {
  for (const server of servers) await server.close()
  servers = []
})

async function started(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options)
  servers.push(server)
  return server
}

describe('the probes', () => {
  it('answer without the control token, where every other control call is refused', async () => {
    const server = await started({ controlToken: 'probe-token-1' })
    expect((await server.request('/__sandbox/personas')).status).toBe(401)
    const ready = await server.request('/__sandbox/ready')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'ready' })
    expect((await server.request('/__sandbox/health')).status).toBe(200)
  })

  it('answer on a closed control API (beyond loopback without a token)', async () => {
    const server = await started({ controlClosed: true })
    expect((await server.request('/__sandbox/personas')).status).toBe(403)
    expect((await server.request('/__sandbox/ready')).status).toBe(200)
    expect((await server.request('/__sandbox/health')).status).toBe(200)
  })

  it('answer a Host that is not loopback without a token, as a probe on a pod IP sends', async () => {
    const server = await started()
    const host = { host: '10.1.2.3:4010' }
    expect((await server.request('/__sandbox/personas', { headers: host })).status).toBe(403)
    expect((await server.request('/__sandbox/ready', { headers: host })).status).toBe(200)
  })

  it('fail readiness, not liveness, while the store cannot take writes, and recover', async () => {
    let down = true
    const store = {
      ...memoryStore(),
      async ready() {
        if (down) {
          throw new SandboxError(503, 'The state store is unreachable', ['connect ECONNREFUSED'])
        }
      },
    }
    const server = await started({ store, controlToken: 'probe-token-1' })
    const failing = await server.request('/__sandbox/ready')
    expect(failing.status).toBe(503)
    expect(failing.headers['retry-after']).toBe('1')
    expect(failing.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The state store is unreachable',
      details: ['connect ECONNREFUSED'],
    })
    expect((await server.request('/__sandbox/health')).status).toBe(200)
    down = false
    expect((await server.request('/__sandbox/ready')).status).toBe(200)
  })

  it('take an unexpected failure of the store check as not ready', async () => {
    const store = {
      ...memoryStore(),
      ready: () => Promise.reject(new Error('socket closed')),
    }
    const server = await started({ store })
    const failing = await server.request('/__sandbox/ready')
    expect(failing.status).toBe(503)
    expect(failing.body).toMatchObject({ details: ['socket closed'] })
  })
})

describe('a state directory', () => {
  it('is ready while its disk takes writes, and leaves no file behind', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-ready-'))
    const server = await started({ stateDir: directory })
    const before = readdirSync(directory)
    expect((await server.request('/__sandbox/ready')).status).toBe(200)
    expect(readdirSync(directory)).toEqual(before)
    expect(before).not.toContain('.ready')
  })

  it('is not ready while its disk refuses writes', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-ready-'))
    const disk = { full: true }
    const { sandboxOptions } = openStateDir(
      directory,
      {},
      {
        files: {
          ...nodeLogFiles,
          replace(file, text, sync) {
            if (!disk.full) return nodeLogFiles.replace(file, text, sync)
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
          },
        },
      },
    )
    const refusal = await sandboxOptions.store.ready!().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refusal).toBeInstanceOf(SandboxError)
    expect(refusal).toMatchObject({
      status: 503,
      message: `The state directory ${directory} refuses writes`,
      details: ['storage error: ENOSPC'],
    })
    disk.full = false
    await expect(sandboxOptions.store.ready!()).resolves.toBeUndefined()
  })
})
