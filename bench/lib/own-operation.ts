/**
 * @module
 * What an operation of your own costs against a built-in read: throughput of the bookings
 * example (`GET /host/bookings?limit=20`, a page of 20, its answer checked against its declared
 * schema) against `GET /payprov/account-status`, alternating rounds on one sandbox process
 * started with `--operations examples/operations/index.mjs`, default scenario.
 */
import { fileURLToPath } from 'node:url'
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'
import { type LoadResult, type LoadSettings, measureLoad } from './load.ts'
import type { Pinning } from './pinning.ts'
import { startChildServer } from './servers.ts'

export interface OwnOperationFigures {
  own: LoadResult
  builtIn: LoadResult
  /** Records on the measured page. */
  items: number
}

const examples = fileURLToPath(new URL('../../examples/operations/index.mjs', import.meta.url))
const OWN_PATH = '/host/bookings?limit=20'

/** Best of `rounds` alternating rounds of each request. */
export async function measureOwnOperation(
  pinning: Pinning,
  script: string,
  settings: LoadSettings,
  rounds: number,
): Promise<OwnOperationFigures> {
  const server = await startChildServer(pinning, script, [
    '--quiet',
    '--port',
    '0',
    '--operations',
    examples,
  ])
  try {
    const token = await createSandboxClient({ baseUrl: server.url }).accessToken('host')
    const headers = { authorization: `Bearer ${token}` }
    const page = await fetch(`${server.url}${OWN_PATH}`, { headers })
    const { items } = (await page.json()) as { items: unknown[] }
    let own: LoadResult | undefined
    let builtIn: LoadResult | undefined
    for (let round = 0; round < rounds; round += 1) {
      const a = await measureLoad(
        server.url,
        { method: 'GET', path: OWN_PATH, headers, status: 200 },
        settings,
      )
      if (!own || a.requestsPerSecond > own.requestsPerSecond) own = a
      const b = await measureLoad(
        server.url,
        { method: 'GET', path: '/payprov/account-status', headers, status: 200 },
        settings,
      )
      if (!builtIn || b.requestsPerSecond > builtIn.requestsPerSecond) builtIn = b
    }
    return { own: own!, builtIn: builtIn!, items: items.length }
  } finally {
    await server.stop()
  }
}
