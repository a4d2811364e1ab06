import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MatchedOperation } from '../core/index.ts'
import { createRouter } from '../core/index.ts'
import { createHandlers } from '../runtimes/node/handlers.ts'
import { createSandbox } from '../sandbox.ts'

const BASE = 'http://api.sandbox.test'
const sandbox = createSandbox()
const calls: { url: string; matched: MatchedOperation | undefined }[] = []
const handle = sandbox.handle
sandbox.handle = (request, matched) => {
  calls.push({ url: request.url, matched })
  return handle(request, matched)
}
const server = setupServer(...createHandlers(sandbox, { baseUrl: BASE }))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

describe('the msw routes call the sandbox once per request', () => {
  it('with the operation msw matched, and the sandbox answers it', async () => {
    calls.length = 0
    const response = await fetch(`${BASE}/bookings/bkg_pending/decline`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(401)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.matched?.operation.id).toBe('declineBooking')
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      operationId: 'declineBooking',
      path: '/bookings/bkg_pending/decline',
      status: 401,
    })
  })

  it('with no operation for the control API', async () => {
    calls.length = 0
    const response = await fetch(`${BASE}/__sandbox/health`)
    expect(response.status).toBe(200)
    expect(calls).toEqual([{ url: '/__sandbox/health', matched: undefined }])
  })
})

describe('router.only', () => {
  const match = createRouter([
    { method: 'GET', path: '/users/{id}', value: 'user' },
    { method: 'GET', path: '/users/me', value: 'me' },
  ])

  it('checks one known route and reads its raw params', () => {
    expect(match.only('user', 'GET', '/users/a%20b')).toEqual({
      value: 'user',
      params: { id: 'a%20b' },
    })
    expect(match.only('user', 'GET', '/users/x/')).toEqual({ value: 'user', params: { id: 'x' } })
  })

  it('refuses a path or method the route does not take', () => {
    expect(match.only('user', 'POST', '/users/x')).toBeUndefined()
    expect(match.only('user', 'GET', '/users/x/y')).toBeUndefined()
    expect(match.only('me', 'GET', '/users/you')).toBeUndefined()
    expect(match.only('unknown', 'GET', '/users/x')).toBeUndefined()
  })
})
