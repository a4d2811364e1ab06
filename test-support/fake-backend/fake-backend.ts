/**
 * @module
 * A stand-in for the real backend in tests of record, replay and diff: the sandbox
 * itself, run as its own process on 127.0.0.1, with a few deliberate differences, as a
 * real deployment would have. Prints `{"port":N}` once it listens; stops on SIGTERM.
 *
 * The differences (see `PLANTED_DIFFERENCES`):
 * - `getAccountStatus` answers `payoutsEnabled` where the sandbox says `payouts_enabled`;
 * - `declineBooking` answers 422 where the sandbox answers 409 (booking not pending);
 * - `followUser` sets one more cookie, `backend_route`;
 * - every answer carries `x-served-by: fake-backend`, a header no diff should care about.
 *
 * @example
 * node --import tsx server/fake-backend/fake-backend.ts --port 0
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SandboxResponse } from '../../mocks/core/index.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { writeAnswer } from '../../server/handler.ts'
import { readBody, TOO_LARGE } from '../../server/read-body.ts'

/** What the fake backend does differently from the sandbox, by operation. */
export const PLANTED_DIFFERENCES = {
  getAccountStatus: 'body',
  declineBooking: 'status',
  followUser: 'headers',
} as const

function plant(path: string, answer: SandboxResponse): SandboxResponse {
  const changed: SandboxResponse = {
    ...answer,
    headers: { ...answer.headers, 'x-served-by': 'fake-backend' },
  }
  if (path === '/payprov/account-status' && answer.status === 200) {
    const { payouts_enabled: payoutsEnabled, ...rest } = answer.body as Record<string, unknown>
    changed.body = { payoutsEnabled, ...rest }
  }
  if (/^\/bookings\/[^/]+\/decline$/.test(path) && answer.status === 409) {
    changed.status = 422
    changed.body = { ...(answer.body as object), code: 'UNPROCESSABLE_ENTITY' }
  }
  if (/^\/users\/[^/]+\/follow$/.test(path)) {
    changed.setCookie = [...answer.setCookie, 'backend_route=node-1; Path=/; HttpOnly']
  }
  return changed
}

const portArgument = process.argv.indexOf('--port')
const port = portArgument === -1 ? 0 : Number(process.argv[portArgument + 1])
const sandbox = createSandbox()
await sandbox.ready

const server = createServer(async (req, res) => {
  const url = req.url ?? '/'
  const read = req.method === 'GET' || req.method === 'HEAD' ? '' : await readBody(req, 1024 * 1024)
  const answer = await sandbox.handle({
    method: req.method ?? 'GET',
    url,
    headers: req.headers as Record<string, string | undefined>,
    body: read === TOO_LARGE ? null : read,
    bodyTooLarge: read === TOO_LARGE,
  })
  const mark = url.indexOf('?')
  writeAnswer(res, plant(mark === -1 ? url : url.slice(0, mark), answer))
})
server.listen(port, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }))
})
process.on('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
