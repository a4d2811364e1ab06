import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { setupSandboxServer } from './index.ts'

const { server, reset } = setupSandboxServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => reset())
afterAll(() => server.close())

const resetFrom = (url: string, origin: string) =>
  fetch(`${url}/__sandbox/reset`, { method: 'POST', headers: { origin } })

describe('the control API through msw', () => {
  it("takes a state-changing call from the page's own origin: a Fetch request's URL is its Host", async () => {
    const page = 'https://app.example.com'
    expect((await resetFrom(page, page)).status).toBe(200)
    expect((await resetFrom('https://api.example.com', page)).status).toBe(403)
  })
})
