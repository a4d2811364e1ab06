import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { PUBLISHED_SPEC_PATH } from '../../scripts/spec/build-document.ts'
import { runningChildren } from './child-processes.ts'
import { findFreePort } from './free-port.ts'
import { PrismStartError, startPrism } from './start-prism.ts'

const PRISM_TEST_TIMEOUT = 30_000

describe('startPrism', () => {
  it(
    'starts a mock on a free port, answers, and leaves no process behind when stopped',
    async () => {
      const prism = await startPrism({ mode: 'mock', document: PUBLISHED_SPEC_PATH })
      try {
        const response = await fetch(`${prism.url}/auth/refresh?dryRun=true`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refreshToken: 'rt_a.b' }),
        })
        expect(response.status).toBe(200)
      } finally {
        await prism.stop()
      }
      expect(runningChildren()).toBe(0)
    },
    PRISM_TEST_TIMEOUT,
  )

  it('says so when the Prism CLI is missing', async () => {
    await expect(
      startPrism({ mode: 'mock', document: PUBLISHED_SPEC_PATH, cli: '/nowhere/prism.js' }),
    ).rejects.toThrow('the Prism CLI /nowhere/prism.js does not exist; run `npm install`')
  })

  it('says so when the document does not exist', async () => {
    await expect(startPrism({ mode: 'mock', document: '/nowhere/api.yaml' })).rejects.toThrow(
      'Failed to start Prism: no document at /nowhere/api.yaml',
    )
  })

  it(
    'reports a port that is taken, with what Prism printed',
    async () => {
      const port = await findFreePort()
      const holder = createServer()
      await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve))
      try {
        const error = await startPrism({ mode: 'mock', document: PUBLISHED_SPEC_PATH, port }).catch(
          (caught: unknown) => caught,
        )
        expect(error).toBeInstanceOf(PrismStartError)
        expect(String(error)).toMatch(/Prism exited with 1 before it was ready/)
        expect(String(error)).toMatch(/EADDRINUSE/)
      } finally {
        holder.close()
      }
      expect(runningChildren()).toBe(0)
    },
    PRISM_TEST_TIMEOUT,
  )

  it(
    'gives up after the startup timeout and stops the process',
    async () => {
      await expect(
        startPrism({ mode: 'mock', document: PUBLISHED_SPEC_PATH, startupTimeoutMs: 1 }),
      ).rejects.toThrow(/Prism did not answer within 1 ms\n--- Prism output ---/)
      expect(runningChildren()).toBe(0)
    },
    PRISM_TEST_TIMEOUT,
  )
})
