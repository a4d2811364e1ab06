import { describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { getPersona } from '../fixtures/personas.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { SESSION_HEADER } from '../mocks/sandbox-client/sandbox-client.ts'
import { startTestServer } from '../test-support/server/test-server.ts'
import { startStateDirCli, useStateDirServers } from '../test-support/server/test-state-dir.ts'

const CLIENTS = 8
const { temporaryDirectory } = useStateDirServers('sandbox-crash-')

describe('a sandbox killed with SIGKILL in the middle of a load', () => {
  it('restarts with every write a client saw answered 201, and at most the one in flight more', async () => {
    const directory = temporaryDirectory()
    const cli = startStateDirCli(directory)
    try {
      const url = await cli.url
      const refresh = await fetch(`${url}/auth/refresh?dryRun=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: getPersona('guest').refreshToken }),
      })
      const { accessToken } = (await refresh.json()) as { accessToken: string }

      const seen = Array.from({ length: CLIENTS }, () => 0)
      let killed = false
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        while (!killed) {
          try {
            const response = await fetch(`${url}/checkout/create-session`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${accessToken}`,
                [SESSION_HEADER]: `crash-${client}`,
              },
              body: JSON.stringify({ bookingId: anchors.bookings.accepted }),
            })
            if (response.status === 201) seen[client]! += 1
            else throw new Error(`unexpected ${response.status}`)
          } catch (error) {
            if (!killed) throw error
          }
        }
      })
      // Kill once every client has had writes answered, with requests surely in flight.
      while (seen.some((count) => count < 20))
        await new Promise((resolve) => setTimeout(resolve, 10))
      killed = true
      cli.child.kill('SIGKILL')
      expect((await cli.exited).signal).toBe('SIGKILL')
      await Promise.all(clients)

      const restarted = await startTestServer({ stateDir: directory })
      try {
        const base = (await createSandbox().store()).checkoutSessions.count()
        expect(restarted.restored?.sessions).toBe(CLIENTS)
        for (let client = 0; client < CLIENTS; client++) {
          const records = await restarted.collection('checkoutSessions', `crash-${client}`)
          const written = records.length - base
          // Every 201 is there; at most the one request in flight on this client is too.
          expect(written, `crash-${client}`).toBeGreaterThanOrEqual(seen[client]!)
          expect(written, `crash-${client}`).toBeLessThanOrEqual(seen[client]! + 1)
        }
        console.log(
          `kill -9 under load: ${seen.reduce((a, b) => a + b)} writes answered 201, all back from ${restarted.restored?.sessions} logs`,
        )
      } finally {
        await restarted.close()
      }
    } finally {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
    }
  }, 90_000)
})
