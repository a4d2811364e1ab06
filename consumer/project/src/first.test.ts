import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const { server, reset } = setupSandboxServer()
beforeAll(() => server.listen())
afterEach(() => reset())
afterAll(() => server.close())

it('answers the API in the test process', async () => {
  const response = await fetch('http://localhost:4010/auth/refresh', { method: 'POST' })
  expect(response.status).toBe(401) // no refresh token: signed out
})
