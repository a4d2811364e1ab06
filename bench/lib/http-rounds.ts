/**
 * @module
 * Throughput and p99 latency over HTTP: the same requests against the sandbox, Express and
 * bare `node:http`, one server at a time, in alternating rounds.
 */
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'
import { type LoadResult, type LoadTarget, measureLoad } from './load.ts'
import type { Pinning } from './pinning.ts'
import { startChildServer } from './servers.ts'
import { load, loadRounds, type ServerName, servers } from './settings.ts'

export interface HttpRounds {
  /** Per target, the best run of each server. */
  best: Record<string, Partial<Record<ServerName, LoadResult>>>
  /** Every run, for the raw results. */
  runs: { round: number; server: ServerName; target: string; result: LoadResult }[]
  /** The host persona's access token, signed in on the sandbox (it signs the same everywhere). */
  token: string
}

/** The requests measured, signed with `token`. */
export const httpTargets = (token: string): Record<string, LoadTarget> => ({
  'GET /payprov/account-status': {
    method: 'GET',
    path: '/payprov/account-status',
    headers: { authorization: `Bearer ${token}` },
    status: 200,
  },
  'POST /users/usr_guest/follow?dryRun=true': {
    method: 'POST',
    path: '/users/usr_guest/follow?dryRun=true',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
    status: 201,
  },
})

async function checkStatus(url: string, target: LoadTarget, server: string) {
  const response = await fetch(`${url}${target.path}`, {
    method: target.method,
    headers: target.headers ?? {},
    ...(target.body === undefined ? {} : { body: target.body }),
  })
  await response.arrayBuffer()
  if (response.status !== target.status) {
    throw new Error(
      `Failed to benchmark ${server}: ${target.method} ${target.path} answered ${response.status}, expected ${target.status}`,
    )
  }
}

/**
 * Rounds alternate between the servers and the best run of each is kept, so that a
 * burst of other work on the machine does not decide a ratio on its own.
 */
export async function measureHttpRounds(
  pinning: Pinning,
  log: (line: string) => void,
): Promise<HttpRounds> {
  const best: HttpRounds['best'] = {}
  const runs: HttpRounds['runs'] = []
  let token = ''
  for (let round = 0; round < loadRounds; round++) {
    for (const name of ['sandbox', 'express', 'node:http'] as const) {
      const server = await startChildServer(pinning, servers[name].script, servers[name].args)
      try {
        if (name === 'sandbox' && token === '') {
          token = await createSandboxClient({ baseUrl: server.url }).accessToken('host')
        }
        for (const [label, target] of Object.entries(httpTargets(token))) {
          await checkStatus(server.url, target, name)
          const result = await measureLoad(server.url, target, load)
          if (result.failures > 0) {
            throw new Error(
              `Failed to benchmark ${name}: ${result.failures} failed requests on ${label}`,
            )
          }
          runs.push({ round, server: name, target: label, result })
          const kept = best[label]?.[name]
          if (!kept || result.requestsPerSecond > kept.requestsPerSecond) {
            best[label] = { ...best[label], [name]: result }
          }
          log(
            `  round ${round + 1} ${name.padEnd(9)} ${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms`,
          )
        }
      } finally {
        await server.stop()
      }
    }
  }
  return { best, runs, token }
}
